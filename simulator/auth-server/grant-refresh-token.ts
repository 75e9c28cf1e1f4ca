import type { Scope } from '../contract/scopes.ts';
import type { ClientRecord } from '../services/client-service.ts';
import { tokenBody, type AuthServerDeps } from './deps.ts';
import { OAuthError } from './oauth-error.ts';
import type { OAuthParams } from './params.ts';
import { resolveScopes } from './scope-request.ts';

/**
 * refresh_token (RFC 6749 6) with rotation: a new access token and a new refresh token; the presented
 * one is spent. Presenting a spent one revokes the whole family and every access token it produced.
 * `scope` may narrow the new access token, never widen it.
 * @example await refreshTokenGrant(client, { refresh_token }, deps);
 */
export async function refreshTokenGrant(client: ClientRecord, params: OAuthParams, deps: AuthServerDeps) {
  if (params.refresh_token === undefined)
    throw new OAuthError('invalid_request', 'The parameter refresh_token is missing.');
  let scopes: Scope[] = [];
  // The scope is checked before the token is spent, so a refused request leaves it usable.
  const result = await deps.families.rotate(params.refresh_token, client.id, (grant) => {
    scopes = resolveScopes(params.scope, grant.scopes);
  });
  switch (result.kind) {
    case 'unknown':
      throw new OAuthError('invalid_grant', 'The refresh token is not recognised.');
    case 'other-client':
      throw new OAuthError('invalid_grant', 'The refresh token was issued to another client.');
    case 'revoked':
      throw new OAuthError('invalid_grant', 'The refresh token was revoked; start the sign-in again.');
    case 'expired':
      throw new OAuthError('invalid_grant', 'The refresh token has expired; start the sign-in again.');
    case 'reused':
      // The service revoked the family and its access tokens.
      throw new OAuthError(
        'invalid_grant',
        'The refresh token was already used. Refresh tokens rotate: each is valid once. The grant and all its tokens are now revoked; start the sign-in again.',
      );
  }
  const { grant, family, refreshToken } = result;
  return tokenBody(await deps.state.tokens.issue({ ...grant, scopes, family }), refreshToken);
}
