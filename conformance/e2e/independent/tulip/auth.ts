// Tulip's authorization server stand-in and its auth, tenant, version and rate-limit middlewares (the
// Kleislis composed in front of every authenticated route). The token endpoint follows Keycloak's layout, the
// identity provider the team runs: /realms/ncs/protocol/openid-connect/token, opaque bearer tokens of five
// minutes, renewed rather than extended.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Ctx, header, print, readBody, VERSIONS } from './http.ts';
import type { Store } from './state.ts';

export const TOKEN_PATH = '/realms/ncs/protocol/openid-connect/token';
/** The deployment's one environment: the sandbox (invented data, separate access). */
export const DEPLOYMENT_ENVIRONMENT = 'sandbox';

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(print({ error, error_description: description }));
}

/** RFC 6749 client credentials, with client_secret_basic or client_secret_post. */
export async function tokenEndpoint(store: Store, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return oauthError(res, 405, 'invalid_request', 'POST only');
  const form = new URLSearchParams(await readBody(req));
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return oauthError(res, 400, 'unsupported_grant_type', 'only client_credentials');
  }
  if (!same(id, store.client.id) || !same(secret, store.client.secret)) {
    return oauthError(res, 401, 'invalid_client', 'client authentication failed');
  }
  const token = randomBytes(32).toString('base64url');
  const ttl = store.options.tokenTtlSec;
  store.tokens.set(token, { clientId: id, exp: Date.now() + ttl * 1000 });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(print({ access_token: token, token_type: 'Bearer', expires_in: ttl, scope: 'ncs.read ncs.write' }));
}

/** The bearer Kleisli: 401 for a missing, unknown or expired token. */
export function authenticate(store: Store, ctx: Ctx): void {
  const m = /^Bearer\s+(\S+)$/i.exec(header(ctx, 'authorization') ?? '');
  const entry = m?.[1] ? store.tokens.get(m[1]) : undefined;
  if (!entry) throw new ApiError(401, 'unauthorized', 'A valid bearer token is required');
  if (entry.exp <= Date.now()) throw new ApiError(401, 'unauthorized', 'The access token has expired');
  ctx.clientId = entry.clientId;
}

/** The tenant Kleisli: the header names an existing tenant released to this client. */
export function resolveTenant(store: Store, ctx: Ctx): void {
  const tenant = header(ctx, 'x-service-tenant')?.trim();
  if (!tenant) throw new ApiError(400, 'invalid_request', 'Header x-service-tenant is required');
  if (!store.client.tenants.includes(tenant)) {
    throw new ApiError(403, 'forbidden', 'The tenant is not released to this access');
  }
  ctx.tenant = tenant;
}

/** Service-Version: optional (current when absent); an unknown value is refused rather than guessed. */
export function negotiateVersion(store: Store, ctx: Ctx, authenticated: boolean): void {
  const v = header(ctx, 'service-version')?.trim();
  if (v === undefined || v === '') {
    if (authenticated && store.options.requireServiceVersion) {
      throw new ApiError(400, 'invalid_request', 'Header Service-Version is required', `one of ${VERSIONS.join(', ')}`);
    }
    return;
  }
  if (!VERSIONS.includes(v)) {
    if (store.options.unknownVersion === 'current') return;
    throw new ApiError(400, 'invalid_request', 'Unknown Service-Version', `one of ${VERSIONS.join(', ')}`);
  }
  ctx.version = v;
}

/** A sliding-window log per (access, tenant, environment), as the team's Redis ZSET limiter keeps it. */
export function rateLimit(store: Store, ctx: Ctx): void {
  const { rateLimit: limit, windowMs } = store.options;
  const key = `${ctx.clientId}|${ctx.tenant}|${DEPLOYMENT_ENVIRONMENT}`;
  const now = Date.now();
  const log = (store.rateWindows.get(key) ?? []).filter((t) => t > now - windowMs);
  store.rateWindows.set(key, log);
  if (log.length >= limit) {
    const oldest = log[0] ?? now;
    const retry = Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));
    ctx.headers = { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': '0' };
    throw new ApiError(429, 'rate_limited', 'Too many calls', `retry after ${retry} s`, {
      'Retry-After': String(retry),
    });
  }
  log.push(now);
  ctx.headers = { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': String(limit - log.length) };
}
