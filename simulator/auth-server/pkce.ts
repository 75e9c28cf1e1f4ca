import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 4.1: 43 to 128 characters of the unreserved set. */
export const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** An S256 challenge is the base64url SHA-256 of the verifier: always 43 characters. */
export const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Whether `verifier` hashes to the S256 `challenge` (compared in constant time).
 * @example verifyS256(verifier, challenge) === true;
 */
export function verifyS256(verifier: string, challenge: string): boolean {
  const derived = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return derived.length === expected.length && timingSafeEqual(derived, expected);
}
