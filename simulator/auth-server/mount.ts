import { buildAuthServerDocument, type OpenApiDocument } from '../contract/openapi.ts';
import { ApiError } from '../core/api-error.ts';
import { raw } from '../core/reply.ts';
import type { Mount, MountHandler } from '../core/mount.ts';
import { pipeline } from '../core/step.ts';
import { createRouter } from '../core/router.ts';
import type { PlainRequest, PlainResponse } from '../core/types.ts';
import { routeMatchStep } from '../middleware/route-match.ts';
import { authorizeEndpoint } from './authorize.ts';
import { createCodeService } from '../services/code-service.ts';
import { createRefreshFamilyService } from '../services/refresh-family-service.ts';
import type { AuthorizationCodeRepository } from '../state/ports/authorization-codes.ts';
import type { RefreshFamilyRepository } from '../state/ports/refresh-families.ts';
import { createCodeStore } from './code-store.ts';
import type { AuthServerDeps, AuthServerStores } from './deps.ts';
import { authServerMetadata, OAUTH_PATHS } from './metadata.ts';
import { OAuthError, oauthErrorResponse, oauthJson } from './oauth-error.ts';
import { createRefreshFamilyStore } from './refresh-families.ts';
import { revokeEndpoint } from './revoke.ts';
import { OAUTH_ROUTES, type OAuthRouteId } from './routes.ts';
import { tokenEndpoint } from './token-endpoint.ts';

export interface AuthServerOptions {
  state: AuthServerStores;
  /** Issuer for requests that do not carry their origin (direct core calls), e.g. the sandbox base URL. */
  issuer: string;
  /** Lifetime of each refresh token; a rotation issues a fresh one (default 86 400 s). */
  refreshTokenTtlSeconds?: number;
  /** Lifetime of authorization codes (default 60 s). */
  codeTtlSeconds?: number;
  /** Where codes and refresh families are kept (default: memory repositories of this process). */
  repositories?: { codes?: AuthorizationCodeRepository; families?: RefreshFamilyRepository };
  /** Wraps the code and refresh-family services (a shared sandbox shares their changes with other replicas). */
  wrapStores?: (stores: Pick<AuthServerDeps, 'codes' | 'families'>) => Pick<AuthServerDeps, 'codes' | 'families'>;
}

type Endpoint = (
  req: PlainRequest,
  requestId: string,
  deps: AuthServerDeps,
  issuer: string,
) => PlainResponse | Promise<PlainResponse>;

const ENDPOINTS: Record<OAuthRouteId, Endpoint> = {
  oauthMetadata: (_req, id, _deps, issuer) => oauthJson(200, authServerMetadata(issuer), id),
  oauthToken: tokenEndpoint,
  oauthAuthorize: authorizeEndpoint,
  oauthAuthorizeForm: authorizeEndpoint,
  oauthRevoke: revokeEndpoint,
};

/** The core router's answers for unknown paths and methods, in the authorization server's own error format. */
function asOAuthError(err: ApiError): OAuthError {
  const allow = err.headers.allow;
  if (allow) return new OAuthError('invalid_request', err.detail ?? err.message, { status: 405, headers: { allow } });
  if (err.code === 'not_found') return new OAuthError('not_found', err.detail ?? err.message, { status: 404 });
  return new OAuthError('invalid_request', err.detail ?? err.message);
}

/**
 * The sandbox OAuth 2.1 authorization server as a mount of the front door: RFC 8414 metadata, token endpoint
 * (client_credentials, authorization_code with S256 PKCE, refresh_token with rotation), authorize
 * endpoint with automatic consent, RFC 7009 revocation. Answers in RFC 6749 JSON, never the API envelope.
 * @example createCore({ state, servers, mounts: [createAuthServerMount({ state, issuer: 'http://127.0.0.1:4010' })] });
 */
export function createAuthServerMount(opts: AuthServerOptions): Mount {
  const { state } = opts;
  const stores = {
    // Single use and 60 s; rotation and reuse detection: the rules over their repositories.
    codes: createCodeService({
      repository: opts.repositories?.codes ?? createCodeStore(),
      clock: state.clock,
      ...(opts.codeTtlSeconds === undefined ? {} : { ttlSeconds: opts.codeTtlSeconds }),
    }),
    families: createRefreshFamilyService({
      repository: opts.repositories?.families ?? createRefreshFamilyStore(),
      clock: state.clock,
      ...(opts.refreshTokenTtlSeconds === undefined ? {} : { ttlSeconds: opts.refreshTokenTtlSeconds }),
      // Read when used: a shared sandbox wraps state.tokens to share each revocation.
      accessTokens: { revokeFamily: (family) => state.tokens.revokeFamily(family) },
    }),
  };
  const deps: AuthServerDeps = {
    state,
    ...(opts.wrapStores ? opts.wrapStores(stores) : stores),
    fallbackIssuer: opts.issuer.replace(/\/+$/, ''),
  };
  // Routing document built on the first OAuth request: a start that only serves the API skips it.
  const router = createRouter(() => buildAuthServerDocument(OAUTH_ROUTES) as OpenApiDocument, {
    routes: OAUTH_ROUTES,
    unknownPath: () => ({ detail: `No OAuth endpoint here; the endpoints are listed at ${OAUTH_PATHS.metadata}.` }),
    wrongMethod: (_method, path, allow) => ({ detail: `Use ${allow} on ${path}.` }),
  });
  const endpoint =
    (id: OAuthRouteId): MountHandler =>
    async (ctx) =>
      raw(await ENDPOINTS[id](ctx.req, ctx.requestId, deps, ctx.req.origin ?? deps.fallbackIssuer));
  const handlers: Record<OAuthRouteId, MountHandler> = {
    oauthMetadata: endpoint('oauthMetadata'),
    oauthToken: endpoint('oauthToken'),
    oauthAuthorize: endpoint('oauthAuthorize'),
    oauthAuthorizeForm: endpoint('oauthAuthorizeForm'),
    oauthRevoke: endpoint('oauthRevoke'),
  };
  return {
    name: 'oauth',
    prefixes: ['/oauth', OAUTH_PATHS.metadata],
    routes: OAUTH_ROUTES,
    // Not versioned: every request is served as the current interface version.
    pipeline: pipeline([routeMatchStep(router)], ['version']),
    handlers,
    ready: () => router.ready,
    // RFC 6749 JSON, never the API envelope: the router's 404/405 become OAuth errors too.
    onError(err, ctx) {
      const oauthErr = err instanceof ApiError ? asOAuthError(err) : err;
      return oauthErr instanceof OAuthError ? oauthErrorResponse(oauthErr, ctx.requestId) : undefined;
    },
  };
}
