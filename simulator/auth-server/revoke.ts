import type { PlainRequest, PlainResponse } from '../core/types.ts';
import { authenticateClient } from './client-auth.ts';
import type { AuthServerDeps } from './deps.ts';
import { OAuthError, oauthJson } from './oauth-error.ts';
import { formParams } from './params.ts';

/**
 * POST /oauth/revoke (RFC 7009). A refresh token revokes its whole grant, access tokens included; an
 * access token revokes itself. Unknown tokens and tokens of other clients are answered 200 all the
 * same (2.2), so the answer tells nothing about a token the caller does not hold.
 * @example await revokeEndpoint(req, 'req_1', deps) // 200 {}
 */
export async function revokeEndpoint(
  req: PlainRequest,
  requestId: string,
  deps: AuthServerDeps,
): Promise<PlainResponse> {
  const params = formParams(req);
  const { client } = await authenticateClient(req, params, { clients: deps.state.clients, clock: deps.state.clock });
  const token = params.token;
  if (token === undefined) throw new OAuthError('invalid_request', 'The parameter token is missing.');
  // The hint only orders the search (RFC 7009 2.1); both kinds are tried.
  // A refresh family's revocation takes its access tokens with it (refresh-family service).
  const tryRefresh = async () => (await deps.families.revokeByToken(token, client.id)) !== undefined;
  const tryAccess = async () => {
    const record = await deps.state.tokens.lookup(token);
    return record?.clientId === client.id && (await deps.state.tokens.revoke(token));
  };
  if (params.token_type_hint === 'access_token') (await tryAccess()) || (await tryRefresh());
  else (await tryRefresh()) || (await tryAccess());
  return oauthJson(200, {}, requestId);
}
