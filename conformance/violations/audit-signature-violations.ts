import { generateKeyPairSync, sign } from 'node:crypto';
import { canonicalJson } from '../../simulator/contract/canonical-json.ts';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { editJson } from './json-edit.ts';
import type { Violation } from './types.ts';

const AUDIT = `${BASE_PATH}/audit-log`;

// A signed proof as some deployments give it (an Ed25519 signature over the proof object, the public key as a
// JWK beside it), signed wrongly in a way a team would ship: one signer left on a key the answer no longer
// publishes (a replica missed the rotation), so the pages it serves carry signatures no published key verifies.

const published = generateKeyPairSync('ed25519');
const stale = generateKeyPairSync('ed25519');
const publicKeyJwk = published.publicKey.export({ format: 'jwk' });

/** Violations of the audit log's signed proof. */
export const AUDIT_SIGNATURE_VIOLATIONS: Violation[] = [
  {
    name: 'audit-signature-unpublished-key',
    description:
      "the audit log's proof carries an Ed25519 signature over the proof object with its public key as a JWK beside it, but pages of a single entry come from a signer still on an earlier key that the answer does not publish",
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    catches: ['audit.signature'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== AUDIT || res.status !== 200) return res;
      return editJson(res, (b) => {
        const proof = b.data?.proof as Record<string, unknown> | undefined;
        if (!proof) return;
        const single = Array.isArray(b.data?.entries) && b.data.entries.length === 1;
        const key = single ? stale.privateKey : published.privateKey;
        proof.signature = sign(null, Buffer.from(canonicalJson(proof), 'utf8'), key).toString('base64url');
        proof.publicKeyJwk = publicKeyJwk;
      });
    },
  },
];
