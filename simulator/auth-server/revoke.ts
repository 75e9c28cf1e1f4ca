import type { PlainRequest, PlainResponse } from '../core/types.ts';
import { authenticateClient } from './client-auth.ts';
import type { AuthServerDeps } from './deps.ts';
import { OAuthError, oauthJson } from './oauth-error.ts';
import { formParams } from './params.ts';

/**
 * POST /oauth/revoke (RFC 7009). A refresh token revokes its whole grant, access tokens included; an
 * access token revokes itself. Unknown tokens and tokens of other clients are answered 200 all the
 * same (2.2), so the answer tells nothing about a token the caller does not hold.
 * @example revokeEndpoint(req, 'req_1', deps) // 200 {}
 */
export function revokeEndpoint(req: PlainRequest, requestId: string, deps: AuthServerDeps): PlainResponse {
  const params = formParams(req);
  const { client } = authenticateClient(req, params, { clients: deps.state.clients, clock: deps.state.clock });
  const token = params.token;
  if (token === undefined) throw new OAuthError('invalid_request', 'The parameter token is missing.');
  // The hint only orders the search (RFC 7009 2.1); both kinds are tried.
  const tryRefresh = () => {
    const family = deps.families.revokeByToken(token, client.id);
    if (family) deps.state.tokens.revokeFamily(family);
    return family !== undefined;
  };
  const tryAccess = () => {
    const record = deps.state.tokens.lookup(token);
    return record?.clientId === client.id && deps.state.tokens.revoke(token);
  };
  if (params.token_type_hint === 'access_token') tryAccess() || tryRefresh();
  else tryRefresh() || tryAccess();
  return oauthJson(200, {}, requestId);
}
