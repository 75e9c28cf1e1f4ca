import { generateKeyPairSync, sign } from 'node:crypto';
import { canonicalJson } from '../../simulator/contract/canonical-json.ts';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { editJson } from './json-edit.ts';
import { inclusionPath, leafHash, treeHead } from './merkle-tree.ts';
import type { Violation } from './types.ts';

const AUDIT = `${BASE_PATH}/audit-log`;

// A signed proof as some deployments give it (an Ed25519 signature over the proof object, the public key as a
// JWK beside it), signed wrongly in a way a team would ship: one signer left on a key the answer no longer
// publishes (a replica missed the rotation), so the pages it serves carry signatures no published key verifies.

const published = generateKeyPairSync('ed25519');
const stale = generateKeyPairSync('ed25519');
const publicKeyJwk = published.publicKey.export({ format: 'jwk' });

/**
 * A page as an RFC 9162 Merkle tree over its entries oldest first (each entry its leaf hash, index and inclusion
 * proof, the answer the root and size), naming no scheme; `spoil` breaks it the way a violation does.
 */
const asMerkle = (spoil: { paths?: boolean; root?: boolean }) =>
  async function handle(req: Parameters<Violation['handle']>[0], next: Parameters<Violation['handle']>[1]) {
    const res = await next(req);
    if (req.path !== AUDIT || res.status !== 200) return res;
    return editJson(res, (b) => {
      const data = b.data;
      const entries = data?.entries as Record<string, unknown>[] | undefined;
      if (!data || !Array.isArray(entries) || entries.length < 3) return;
      const leaves = entries.map((e) => leafHash(JSON.stringify(e))).reverse();
      const n = leaves.length;
      entries.forEach((e, i) => {
        const index = n - 1 - i;
        const path = inclusionPath(index, leaves).map((p) => p.toString('hex'));
        e.leafIndex = index;
        e.leafHash = leaves[index]?.toString('hex');
        e.inclusionProof = spoil.paths ? path.reverse() : path;
      });
      const root = treeHead(spoil.root ? [...leaves].reverse() : leaves);
      data.merkle = { treeSize: n, rootHash: root.toString('hex') };
    });
  };

/** The first signature each sandbox served per tenant (the violation's signing cache; per core: per run). */
const firstSignatures = new WeakMap<object, Map<string, string>>();

/** Violations of the audit log's signed proof and of an unnamed Merkle tree's. */
export const AUDIT_SIGNATURE_VIOLATIONS: Violation[] = [
  {
    name: 'audit-head-one-write-late',
    description:
      "the audit proof's head (headHash and chainHead.hash) is the chain's head before its newest entry: the head is taken before the entry is appended",
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    // The proof is signed by the sandbox before this edit: its signature no longer verifies either.
    catches: ['audit.integrity', 'audit.chain-links', 'audit.signature'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== AUDIT || res.status !== 200) return res;
      return editJson(res, (b) => {
        const proof = b.data?.proof as { headHash?: unknown; chainHead?: { hash?: unknown } } | undefined;
        const entries = b.data?.entries as { hash?: unknown }[] | undefined;
        const before = entries?.[1]?.hash;
        if (!proof || typeof before !== 'string') return;
        proof.headHash = before;
        if (proof.chainHead) proof.chainHead.hash = before;
      });
    },
  },
  {
    name: 'audit-merkle-paths-reversed',
    description:
      "the audit log is an RFC 9162 Merkle tree whose root recomputes over the entries' leaf hashes (no scheme named), but each inclusion proof lists its path from the root down instead of from the leaf up",
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    catches: ['audit.integrity'],
    handle: asMerkle({ paths: true }),
  },
  {
    name: 'audit-merkle-root-miscomputed',
    description:
      "the audit log's entries carry RFC 9162 inclusion proofs (no scheme named), but the stated root is computed over the leaves in the wrong order, so no proof verifies against it",
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    catches: ['audit.integrity'],
    handle: asMerkle({ root: true }),
  },
  {
    name: 'audit-signature-cached-per-tenant',
    description:
      "the audit proof's signature is computed once per tenant and cached (signing is slow): later answers, whose head has moved on with the tenant's writes, carry the first signature",
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    catches: ['audit.signature'],
    async handle(req, next, core) {
      const res = await next(req);
      if (req.path !== AUDIT || res.status !== 200) return res;
      const cache = firstSignatures.get(core) ?? new Map<string, string>();
      firstSignatures.set(core, cache);
      const tenant = req.headers['x-service-tenant'] ?? '';
      return editJson(res, (b) => {
        const proof = b.data?.proof as Record<string, unknown> | undefined;
        if (typeof proof?.signature !== 'string') return;
        const first = cache.get(tenant);
        if (first === undefined) cache.set(tenant, proof.signature);
        else proof.signature = first;
      });
    },
  },
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
        // The simulator's own signature and key replaced by this signer's.
        delete proof.signature;
        delete proof.publicKeyJwk;
        proof.signature = sign(null, Buffer.from(canonicalJson(proof), 'utf8'), key).toString('base64url');
        proof.publicKeyJwk = publicKeyJwk;
      });
    },
  },
];
