import { hash } from 'node:crypto';

// The last secret hashed and its hash: a client sends the same bearer token on every call, so the
// token check of nearly every request is the same SHA-256 again (~2 % of a POST /connections).
// One entry, in this process only: the hash is a pure function of the secret, so a remembered one
// answers exactly what hashing again would; the secret itself is what the request carried anyway,
// and it is never stored, shared or persisted (stores keep hashes only).
let lastSecret = '';
let lastHash = '';

/**
 * The SHA-256 (base64url) under which a bearer secret (access token, authorization code, refresh token)
 * is kept and shared: the raw secret lives only with its holder. One-shot: no Hash object per request.
 * @example hashToken('ncs_at_x') // 43 base64url characters
 */
export function hashToken(token: string): string {
  if (token === lastSecret && token !== '') return lastHash;
  const h = hash('sha256', token, 'base64url');
  lastSecret = token;
  lastHash = h;
  return h;
}
