import { generateKeyPairSync, sign } from 'node:crypto';
import type { AuditProof } from '../contract/audit-hash.ts';
import { canonicalJson } from '../contract/canonical-json.ts';

/** Adds a signature over a page's proof and the key that checks it. */
export type AuditSigner = (proof: AuditProof) => AuditProof;

/**
 * Signs audit proofs with a key pair made for this sandbox process: the answer carries the public key, so a
 * page copied elsewhere can be checked without the sandbox (a signed chain head, as transparency logs sign
 * theirs). Ed25519 over the RFC 8785 JSON of the proof without `signature` and `publicKeyJwk`.
 * @example const signed = createAuditSigner()(proof); verify(null, Buffer.from(canonicalJson(proof)), key, Buffer.from(signed.signature, 'base64url'))
 */
export function createAuditSigner(): AuditSigner {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const { x } = publicKey.export({ format: 'jwk' });
  const publicKeyJwk = { kty: 'OKP', crv: 'Ed25519', x: String(x) } as const;
  return (proof) => {
    const { signature: _s, publicKeyJwk: _k, ...signed } = proof;
    const signature = sign(null, Buffer.from(canonicalJson(signed), 'utf8'), privateKey).toString('base64url');
    return { ...signed, signature, publicKeyJwk };
  };
}
