// Access: a Keycloak-style token endpoint for client credentials, and the `before("/api/public/v1/*")` handlers
// the team registers: bearer token, tenant header, bucket4j rate limit (with its own headers beside the three the
// interface names), in that order.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Ctx } from './http.ts';
import type { Store } from './state.ts';

/** Keycloak's path for realm `ncs`: the team runs Keycloak as its authorization server. */
export const TOKEN_PATH = '/realms/ncs/protocol/openid-connect/token';

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ error, error_description: description }));
}

/** POST of the token endpoint: client_secret_basic or client_secret_post, as Keycloak accepts both. */
export function tokenEndpoint(store: Store, req: IncomingMessage, res: ServerResponse, raw: string): void {
  if (req.method !== 'POST') {
    oauthError(res, 405, 'invalid_request', 'HTTP method not allowed');
    return;
  }
  const form = new URLSearchParams(raw);
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic?.[1]) {
    const [u, p] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
    id = decodeURIComponent(u ?? '');
    secret = decodeURIComponent(p ?? '');
  }
  if (form.get('grant_type') !== 'client_credentials') {
    oauthError(res, 400, 'unsupported_grant_type', 'Unsupported grant_type');
    return;
  }
  const client = store.clients.get(id);
  if (!client || !same(client.secret, secret)) {
    oauthError(res, 401, 'invalid_client', 'Invalid client or Invalid client credentials');
    return;
  }
  const token = randomBytes(32).toString('base64url');
  const ttl = store.options.tokenTtlSeconds;
  store.tokens.set(token, { clientId: id, expiresAt: Date.now() + ttl * 1000 });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(
    JSON.stringify({
      access_token: token,
      expires_in: ttl,
      refresh_expires_in: 0,
      token_type: 'Bearer',
      'not-before-policy': 0,
      scope: 'connections:read connections:write webhooks:write audit:read',
    }),
  );
}

/** The bearer token before-handler: 401 for a missing, unknown or expired token. */
export function authenticate(store: Store, ctx: Ctx): void {
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '');
  const grant = m?.[1] ? store.tokens.get(m[1]) : undefined;
  if (!grant || grant.expiresAt <= Date.now()) {
    throw new ApiError(
      'unauthorized',
      grant ? 'The access token has expired.' : 'A valid bearer token is required.',
      'Request a new access token.',
    );
  }
  ctx.clientId = grant.clientId;
}

/** The tenant before-handler: the header is required (400), and the tenant must be released to the client (403). */
export function resolveTenant(store: Store, ctx: Ctx): void {
  const tenant = ctx.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant.trim() === '') {
    throw new ApiError('invalid_request', 'Header x-service-tenant is required.', 'Send the tenant identifier.');
  }
  const client = store.clients.get(ctx.clientId ?? '');
  if (!client?.tenants.includes(tenant)) {
    throw new ApiError('forbidden', 'The tenant is not released for this access.');
  }
  ctx.tenant = tenant;
}

/** bucket4j with an interval refill: one bucket per client, tenant and environment (this deployment is sandbox). */
export function rateLimit(store: Store, ctx: Ctx): void {
  const { rateLimit: limit, windowMs } = store.options;
  const key = `${ctx.clientId}|${ctx.tenant}|sandbox`;
  const now = Date.now();
  let b = store.buckets.get(key);
  if (!b || now - b.windowStart >= windowMs) {
    b = { windowStart: now, used: 0 };
    store.buckets.set(key, b);
  }
  ctx.headers['x-ratelimit-limit'] = String(limit);
  if (b.used >= limit) {
    const wait = String(Math.max(1, Math.ceil((b.windowStart + windowMs - now) / 1000)));
    ctx.headers['x-ratelimit-remaining'] = '0';
    ctx.headers['x-rate-limit-remaining'] = '0';
    throw new ApiError('rate_limited', `Limit of ${limit} calls per window reached.`, 'Wait as Retry-After says.', {
      'retry-after': wait,
      'x-rate-limit-retry-after-seconds': wait,
    });
  }
  b.used += 1;
  ctx.headers['x-ratelimit-remaining'] = String(limit - b.used);
  ctx.headers['x-rate-limit-remaining'] = String(limit - b.used);
}
