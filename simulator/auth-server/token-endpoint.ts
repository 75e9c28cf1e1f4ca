import type { PlainRequest, PlainResponse } from '../core/types.ts';
import { authenticateClient } from './client-auth.ts';
import type { AuthServerDeps } from './deps.ts';
import { authorizationCodeGrant } from './grant-authorization-code.ts';
import { clientCredentialsGrant } from './grant-client-credentials.ts';
import { refreshTokenGrant } from './grant-refresh-token.ts';
import { OAuthError, oauthJson } from './oauth-error.ts';
import { formParams } from './params.ts';

const GRANTS = {
  client_credentials: clientCredentialsGrant,
  authorization_code: authorizationCodeGrant,
  refresh_token: refreshTokenGrant,
} as const;

export const GRANT_TYPES = Object.keys(GRANTS);

/**
 * POST /oauth/token (RFC 6749 3.2): authenticates the client, then runs its grant.
 * @example await tokenEndpoint(req, 'req_1', deps) // 200 {access_token, token_type: 'Bearer', expires_in, scope, ...}
 */
export async function tokenEndpoint(
  req: PlainRequest,
  requestId: string,
  deps: AuthServerDeps,
): Promise<PlainResponse> {
  const params = formParams(req);
  const type = params.grant_type;
  if (type === undefined)
    throw new OAuthError('invalid_request', `The parameter grant_type is missing (one of ${GRANT_TYPES.join(', ')}).`);
  if (!Object.hasOwn(GRANTS, type)) {
    throw new OAuthError('unsupported_grant_type', `Supported grant types: ${GRANT_TYPES.join(', ')}.`);
  }
  const { client } = await authenticateClient(req, params, { clients: deps.state.clients, clock: deps.state.clock });
  return oauthJson(200, await GRANTS[type as keyof typeof GRANTS](client, params, deps), requestId);
}
