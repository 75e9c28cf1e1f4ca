// The authorization server (client credentials only) and the two policies Anypoint would apply in front of
// the experience API: OAuth 2.0 access token enforcement and client-id enforcement.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CLIENT } from './catalog.ts';
import { ApiError, type Ctx, header } from './http.ts';

export const TOKEN_PATH = '/accounts/api/v2/oauth2/token';
export const METADATA_PATH = '/.well-known/oauth-authorization-server';

export interface TokenStore {
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  ttlSeconds: number;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  const extra: Record<string, string> = status === 401 ? { 'www-authenticate': 'Basic realm="acacia"' } : {};
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...extra });
  res.end(JSON.stringify({ error, error_description: description }));
}

export function metadata(origin: string): Record<string, unknown> {
  return {
    issuer: origin,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    response_types_supported: [],
  };
}

/** POST /accounts/api/v2/oauth2/token: client_secret_basic or client_secret_post, form-encoded. */
export function issueToken(store: TokenStore, req: IncomingMessage, raw: string, res: ServerResponse): void {
  const form = new URLSearchParams(raw);
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const auth = req.headers.authorization ?? '';
  if (auth.toLowerCase().startsWith('basic ')) {
    const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    oauthError(res, 400, 'unsupported_grant_type', 'only client_credentials is offered');
    return;
  }
  if (!same(id, CLIENT.clientId) || !same(secret, CLIENT.clientSecret)) {
    oauthError(res, 401, 'invalid_client', 'client authentication failed');
    return;
  }
  const token = `acc.${randomBytes(24).toString('base64url')}`;
  store.tokens.set(token, { clientId: id, expiresAt: Date.now() + store.ttlSeconds * 1000 });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
  res.end(
    JSON.stringify({
      access_token: token,
      token_type: 'Bearer',
      expires_in: store.ttlSeconds,
      scope: 'connections:read connections:write',
    }),
  );
}

/** OAuth enforcement + client-id enforcement: sets ctx.clientId, or throws 401. */
export function authenticate(store: TokenStore, ctx: Ctx): void {
  const auth = header(ctx, 'authorization') ?? '';
  const m = /^Bearer ([A-Za-z0-9._~+/=-]+)$/i.exec(auth.trim());
  const unauth = (detail: string) =>
    new ApiError(
      'unauthorized',
      'The call is not signed in.',
      detail,
      'Request a new access token and check the environment.',
      {
        'www-authenticate': 'Bearer realm="acacia-experience-api"',
      },
    );
  if (!m?.[1]) throw unauth('Authorization: a bearer token is required');
  const entry = store.tokens.get(m[1]);
  if (!entry || entry.expiresAt <= Date.now()) throw unauth('Authorization: the token is unknown or expired');
  // Client-id enforcement: a client_id header, where sent, must name the token's client (Anypoint habit).
  const clientIdHeader = header(ctx, 'client_id');
  if (clientIdHeader !== undefined && clientIdHeader !== entry.clientId) {
    throw unauth('client_id: does not match the access token');
  }
  ctx.clientId = entry.clientId;
}

/** The tenant header: missing is a bad request, a tenant the access is not released for is forbidden. */
export function resolveTenant(ctx: Ctx): void {
  const tenant = header(ctx, 'x-service-tenant');
  if ((tenant === undefined || tenant.trim() === '') && process.env.ACACIA_MISSING_TENANT_401 === '1') {
    // Client-id enforcement habit (hand-started only): a missing required header is an unauthenticated call.
    throw new ApiError('unauthorized', 'The call is not signed in for a tenant.', 'x-service-tenant: required');
  }
  if (tenant === undefined || tenant.trim() === '') {
    throw new ApiError('invalid_request', 'The tenant header is missing.', 'x-service-tenant: required');
  }
  // Unknown and known-but-unreleased tenants get the same answer: the access learns nothing about other tenants.
  if (!CLIENT.tenants.includes(tenant) || ctx.clientId !== CLIENT.clientId) {
    throw new ApiError(
      'forbidden',
      'This access may not act for the tenant.',
      'tenant: not released for this access',
      'Check the permissions of the access.',
    );
  }
  ctx.tenant = tenant;
}
