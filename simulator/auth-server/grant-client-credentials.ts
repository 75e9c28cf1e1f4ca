import type { ClientRecord } from '../services/client-service.ts';
import { tokenBody, type AuthServerDeps } from './deps.ts';
import { OAuthError } from './oauth-error.ts';
import type { OAuthParams } from './params.ts';
import { resolveScopes } from './scope-request.ts';

/**
 * client_credentials (RFC 6749 4.4): server-to-server, no person; confidential clients and service
 * accounts. The token carries the client's tenant releases and environment; no refresh token.
 * @example await clientCredentialsGrant(client, { scope: 'catalog:read' }, deps);
 */
export async function clientCredentialsGrant(client: ClientRecord, params: OAuthParams, deps: AuthServerDeps) {
  if (client.type === 'public') {
    throw new OAuthError(
      'unauthorized_client',
      'A public client has no secret and cannot use client_credentials; use authorization_code with PKCE.',
    );
  }
  const scopes = resolveScopes(params.scope, client.scopes);
  const issued = await deps.state.tokens.issue({
    clientId: client.id,
    tenants: client.tenants,
    scopes,
    environment: client.environment,
  });
  return tokenBody(issued);
}
