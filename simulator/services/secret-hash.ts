import { hash } from 'node:crypto';

/**
 * The SHA-256 (base64url) under which a bearer secret (access token, authorization code, refresh token)
 * is kept and shared: the raw secret lives only with its holder. One-shot: no Hash object per request.
 * @example hashToken('ncs_at_x') // 43 base64url characters
 */
export const hashToken = (token: string): string => hash('sha256', token, 'base64url');
