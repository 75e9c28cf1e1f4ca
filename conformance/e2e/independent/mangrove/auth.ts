// Doorkeeper-style client credentials (POST /oauth/token), bearer checks, tenant release and the
// Rack::Attack-style throttle per token and tenant.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Ctx, iso } from './http.ts';
import type { Store } from './state.ts';

export const CLIENT_ID = 'mangrove-partner-app';
export const TENANTS = { main: 'harbour-grill', other: 'delta-bistro', foreign: 'reef-diner' } as const;
/** Every tenant that exists; the client is released for the first two only. */
const RELEASED = new Set<string>([TENANTS.main, TENANTS.other]);
const EXISTING = new Set<string>([TENANTS.main, TENANTS.other, TENANTS.foreign]);

export interface Auth {
  clientSecret: string;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  windows: Map<string, { window: number; count: number }>;
}

export function newAuth(): Auth {
  return { clientSecret: randomBytes(24).toString('hex'), tokens: new Map(), windows: new Map() };
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ error, error_description: description }));
}

/** POST /oauth/token: grant_type=client_credentials, client authenticated by basic or in the form. */
export function tokenEndpoint(store: Store, auth: Auth, req: IncomingMessage, res: ServerResponse, body: string): void {
  const form = new URLSearchParams(body);
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic) {
    const [u = '', p = ''] = Buffer.from(basic[1] ?? '', 'base64')
      .toString('utf8')
      .split(':');
    id = decodeURIComponent(u);
    secret = decodeURIComponent(p);
  }
  if (form.get('grant_type') !== 'client_credentials') {
    oauthError(res, 400, 'unsupported_grant_type', 'only client_credentials is supported');
    return;
  }
  if (!same(id, CLIENT_ID) || !same(secret, auth.clientSecret)) {
    oauthError(res, 401, 'invalid_client', 'client authentication failed');
    return;
  }
  const token = randomBytes(32).toString('hex');
  const ttl = store.options.tokenTtlS;
  auth.tokens.set(token, { clientId: id, expiresAt: Date.now() + ttl * 1000 });
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(
    JSON.stringify({
      access_token: token,
      token_type: 'Bearer',
      expires_in: ttl,
      scope: 'public',
      created_at: Math.floor(Date.now() / 1000),
    }),
  );
}

/**
 * Rack::Attack throttle, fixed windows: the discriminator is the bearer token (hashed) and the tenant, or
 * the peer address without a token. Counted before anything else, so every answer carries the headers.
 */
export function throttle(store: Store, auth: Auth, ctx: Ctx): void {
  const { rateLimit, windowMs } = store.options;
  const bearer = ctx.req.headers.authorization ?? ctx.req.socket.remoteAddress ?? '';
  const tenant = String(ctx.req.headers['x-service-tenant'] ?? '');
  const key = createHash('sha256').update(`${bearer}|${tenant}`).digest('hex');
  const now = Date.now();
  const window = Math.floor(now / windowMs);
  const entry = auth.windows.get(key);
  const current = entry && entry.window === window ? entry : { window, count: 0 };
  current.count += 1;
  auth.windows.set(key, current);
  ctx.headers['X-RateLimit-Limit'] = String(rateLimit);
  ctx.headers['X-RateLimit-Remaining'] = String(Math.max(0, rateLimit - current.count));
  if (current.count > rateLimit) {
    const resetMs = (window + 1) * windowMs - now;
    ctx.headers['Retry-After'] = String(Math.max(1, Math.ceil(resetMs / 1000)));
    throw new ApiError('rate_limited', 'too many requests, retry later', `retry after ${ctx.headers['Retry-After']} s`);
  }
}

/** Bearer token (401), then tenant header (400 missing, 403 not released). */
export function authenticate(auth: Auth, ctx: Ctx): void {
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '');
  const grant = m ? auth.tokens.get(m[1] ?? '') : undefined;
  if (!grant || grant.expiresAt <= Date.now()) {
    throw new ApiError('unauthorized', 'a valid bearer access token is required');
  }
  const tenant = ctx.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant.trim() === '') {
    throw new ApiError('invalid_request', 'header x-service-tenant is required', 'header: x-service-tenant');
  }
  if (!RELEASED.has(tenant)) {
    throw new ApiError('forbidden', 'this access is not released for the tenant');
  }
  ctx.tenant = tenant;
  ctx.clientId = grant.clientId;
}

/** GET /info: who the call is (a sample first call of the interface). */
export function info(auth: Auth, ctx: Ctx): Record<string, unknown> {
  const token = (/^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '') ?? [])[1] ?? '';
  const grant = auth.tokens.get(token);
  return {
    tenant: ctx.tenant,
    client_id: ctx.clientId,
    environment: 'sandbox',
    token_expires_at: grant ? iso(grant.expiresAt) : null,
    tenants_known: EXISTING.has(ctx.tenant),
  };
}
