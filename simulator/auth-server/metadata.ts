import { SCOPE_NAMES } from '../contract/scopes.ts';
import { GRANT_TYPES } from './token-endpoint.ts';

/** Paths of the authorization server (the interface does not show them; these are the usual ones). */
export const OAUTH_PATHS = {
  metadata: '/.well-known/oauth-authorization-server',
  token: '/oauth/token',
  authorize: '/oauth/authorize',
  revoke: '/oauth/revoke',
} as const;

const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'];

/**
 * Authorization server metadata (RFC 8414) for the issuer the client addressed.
 * @example authServerMetadata('http://127.0.0.1:4010').token_endpoint // 'http://127.0.0.1:4010/oauth/token'
 */
export function authServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${issuer}${OAUTH_PATHS.token}`,
    revocation_endpoint: `${issuer}${OAUTH_PATHS.revoke}`,
    scopes_supported: [...SCOPE_NAMES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: GRANT_TYPES,
    token_endpoint_auth_methods_supported: AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: AUTH_METHODS,
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${issuer}/api/public/v1`,
  };
}
