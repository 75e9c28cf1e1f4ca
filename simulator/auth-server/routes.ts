import { defineRoutes } from '../contract/route-def.ts';
import { OAUTH_PATHS } from './metadata.ts';

/**
 * The authorization server's route table, routed by the core router like the interface. Bodies are
 * form-encoded and read by each endpoint (RFC 6749 errors), so no body schema is validated here.
 */
export const OAUTH_ROUTES = defineRoutes([
  {
    id: 'oauthMetadata',
    method: 'GET',
    path: OAUTH_PATHS.metadata,
    purpose: 'RFC 8414 metadata',
    tags: ['oauth'],
    auth: false,
    surface: 'oauth',
  },
  {
    id: 'oauthToken',
    method: 'POST',
    path: OAUTH_PATHS.token,
    purpose: 'token endpoint (RFC 6749 3.2)',
    tags: ['oauth'],
    auth: false,
    surface: 'oauth',
  },
  {
    id: 'oauthAuthorize',
    method: 'GET',
    path: OAUTH_PATHS.authorize,
    purpose: 'authorization request',
    tags: ['oauth'],
    auth: false,
    surface: 'oauth',
  },
  {
    id: 'oauthAuthorizeForm',
    method: 'POST',
    path: OAUTH_PATHS.authorize,
    purpose: 'consent form',
    tags: ['oauth'],
    auth: false,
    surface: 'oauth',
  },
  {
    id: 'oauthRevoke',
    method: 'POST',
    path: OAUTH_PATHS.revoke,
    purpose: 'revocation (RFC 7009)',
    tags: ['oauth'],
    auth: false,
    surface: 'oauth',
  },
]);

export type OAuthRouteId = (typeof OAUTH_ROUTES)[number]['id'];
