import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../contract/audit-hash.ts';
import { canonicalJson } from '../contract/canonical-json.ts';
import { createAuditSigner } from './audit-signer.ts';

const proof = {
  algorithm: 'sha256' as const,
  canonicalization: 'RFC8785' as const,
  fromSeq: 1,
  toSeq: 0,
  anchorPrevHash: GENESIS_HASH,
  headHash: GENESIS_HASH,
  chainHead: { seq: 0, hash: GENESIS_HASH },
};

describe('signed audit proofs', () => {
  it('signs the proof without its signature fields with the key it publishes beside it', () => {
    const signed = createAuditSigner()(proof);
    const key = createPublicKey({ key: signed.publicKeyJwk as import('node:crypto').JsonWebKey, format: 'jwk' });
    const bytes = Buffer.from(canonicalJson(proof), 'utf8');
    expect(verify(null, bytes, key, Buffer.from(signed.signature ?? '', 'base64url'))).toBe(true);
    // Another head: the same signature no longer verifies.
    const moved = Buffer.from(canonicalJson({ ...proof, toSeq: 1 }), 'utf8');
    expect(verify(null, moved, key, Buffer.from(signed.signature ?? '', 'base64url'))).toBe(false);
    // Signed again (a proof that already carries a signature): the old one is not signed over.
    expect(createAuditSigner()(signed).signature).not.toBe(signed.signature);
  });
});
