import type { Surface } from '../core/surface.ts';
import type { PlainRequest, PlainResponse } from '../core/types.ts';
import { authorizeEndpoint } from './authorize.ts';
import { createCodeStore } from './code-store.ts';
import type { AuthServerDeps, AuthServerStores } from './deps.ts';
import { authServerMetadata, OAUTH_PATHS } from './metadata.ts';
import { OAuthError, oauthErrorResponse, oauthJson } from './oauth-error.ts';
import { createRefreshFamilies } from './refresh-families.ts';
import { revokeEndpoint } from './revoke.ts';
import { tokenEndpoint } from './token-endpoint.ts';

export interface AuthServerOptions {
  state: AuthServerStores;
  /** Issuer for requests that do not carry their origin (direct core calls), e.g. the sandbox base URL. */
  issuer: string;
  /** Lifetime of each refresh token; a rotation issues a fresh one (default 86 400 s). */
  refreshTokenTtlSeconds?: number;
  /** Lifetime of authorization codes (default 60 s). */
  codeTtlSeconds?: number;
}

type Endpoint = (req: PlainRequest, requestId: string, deps: AuthServerDeps, issuer: string) => PlainResponse;

const ENDPOINTS: Record<string, Partial<Record<string, Endpoint>>> = {
  [OAUTH_PATHS.metadata]: { GET: (_req, id, _deps, issuer) => oauthJson(200, authServerMetadata(issuer), id) },
  [OAUTH_PATHS.token]: { POST: tokenEndpoint },
  [OAUTH_PATHS.authorize]: { GET: authorizeEndpoint, POST: authorizeEndpoint },
  [OAUTH_PATHS.revoke]: { POST: revokeEndpoint },
};

/**
 * The sandbox OAuth 2.1 authorization server as a core surface: RFC 8414 metadata, token endpoint
 * (client_credentials, authorization_code with S256 PKCE, refresh_token with rotation), authorize
 * endpoint with automatic consent, RFC 7009 revocation. Answers in RFC 6749 JSON, never the API envelope.
 * @example createCore({ state, servers, surfaces: [createAuthServerSurface({ state, issuer: 'http://127.0.0.1:4010' })] });
 */
export function createAuthServerSurface(opts: AuthServerOptions): Surface {
  const { state } = opts;
  const deps: AuthServerDeps = {
    state,
    codes: createCodeStore(state.clock, opts.codeTtlSeconds ?? 60),
    families: createRefreshFamilies(state.clock, opts.refreshTokenTtlSeconds ?? 86_400),
    fallbackIssuer: opts.issuer.replace(/\/+$/, ''),
  };
  return {
    name: 'oauth',
    owns: (path) => path === OAUTH_PATHS.metadata || path === '/oauth' || path.startsWith('/oauth/'),
    handle(req, ctx) {
      const methods = ENDPOINTS[req.path];
      try {
        if (!methods) {
          throw new OAuthError(
            'not_found',
            `No OAuth endpoint here; the endpoints are listed at ${OAUTH_PATHS.metadata}.`,
            { status: 404 },
          );
        }
        const endpoint = methods[req.method];
        if (!endpoint) {
          const allow = Object.keys(methods).join(', ');
          throw new OAuthError('invalid_request', `Use ${allow} on ${req.path}.`, { status: 405, headers: { allow } });
        }
        return endpoint(req, ctx.requestId, deps, req.origin ?? deps.fallbackIssuer);
      } catch (err) {
        if (err instanceof OAuthError) return oauthErrorResponse(err, ctx.requestId);
        throw err;
      }
    },
  };
}
