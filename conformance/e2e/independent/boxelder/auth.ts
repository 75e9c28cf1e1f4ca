// The token endpoint (POST /auth/token, form-encoded, client_secret_basic or client_secret_post, opaque
// random tokens held in a table) and the per-call checks: bearer token, tenant release, rate window.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError, type Ctx, readBody, sendJson } from './http.ts';
import type { Store } from './state.ts';

export const TOKEN_PATH = '/auth/token';
export const CLIENT = { id: 'boxelder-ci', secret: 'bx-secret-7f3a9c2e51d84b06' };
/** Tenants that exist; the client may act for the first two only. */
export const TENANTS = { main: 'tnt-alder-kitchen', other: 'tnt-birch-bistro', foreign: 'tnt-cedar-cafe' };
const RELEASED = new Set([TENANTS.main, TENANTS.other]);
const EXISTING = new Set([...RELEASED, TENANTS.foreign]);

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** RFC 6749 §5.2 answers: `{ error, error_description }`, not the API's envelope. */
export async function tokenEndpoint(ctx: Ctx): Promise<void> {
  const oauthError = (status: number, error: string, description: string) =>
    sendJson(
      ctx,
      status,
      { error, error_description: description },
      status === 401 ? { 'www-authenticate': 'Basic realm="boxelder"' } : {},
    );
  if (ctx.req.method !== 'POST') return oauthError(400, 'invalid_request', 'POST required');
  const form = new URLSearchParams(await readBody(ctx.req));
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^basic\s+(.+)$/i.exec(String(ctx.req.headers.authorization ?? ''));
  // A decoder of the form alone refuses Basic (RFC 6749 lets a server support only one method).
  if (basic?.[1] && ctx.store.opts.tokenAuth === 'post')
    return oauthError(401, 'invalid_client', 'use client_secret_post');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, colon));
    secret = decodeURIComponent(decoded.slice(colon + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return oauthError(400, 'unsupported_grant_type', 'only client_credentials is served');
  }
  if (!same(id, CLIENT.id) || !same(secret, CLIENT.secret)) return oauthError(401, 'invalid_client', 'unknown client');
  const token = randomBytes(32).toString('hex');
  const ttl = ctx.store.opts.tokenTtlSec;
  ctx.store.tokens.set(token, { clientId: id, expires: Date.now() + ttl * 1000 });
  sendJson(
    ctx,
    200,
    { access_token: token, token_type: 'Bearer', expires_in: ttl, scope: 'ncs.read ncs.write' },
    { 'cache-control': 'no-store' },
  );
}

/** Bearer token, then tenant header, then the rate window, in that order (each an error of the union). */
export function authenticate(ctx: Ctx): void {
  const m = /^bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(String(ctx.req.headers.authorization ?? '').trim());
  const entry = m?.[1] ? ctx.store.tokens.get(m[1]) : undefined;
  if (!entry || entry.expires <= Date.now())
    throw new ApiError('unauthorized', 'missing, unknown or expired access token');
  const tenant = ctx.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant.trim() === '') {
    throw new ApiError('invalid_request', 'header x-service-tenant is required');
  }
  if (!EXISTING.has(tenant) || !RELEASED.has(tenant))
    throw new ApiError('forbidden', 'tenant not released to this client');
  ctx.clientId = entry.clientId;
  ctx.tenant = tenant;
  rateLimit(ctx, `${entry.clientId}|${tenant}|${ctx.store.environment}`);
}

/** A fixed window per key; public endpoints count per remote address ("explicit limits everywhere"). */
export function rateLimit(ctx: Ctx, key: string): void {
  const store: Store = ctx.store;
  const { rateLimit: limit, windowMs } = store.opts;
  const now = Date.now();
  let w = store.windows.get(key);
  if (!w || now - w.start >= windowMs) {
    w = { start: now, used: 0 };
    store.windows.set(key, w);
  }
  ctx.headers['x-ratelimit-limit'] = String(limit);
  if (w.used >= limit) {
    ctx.headers['x-ratelimit-remaining'] = '0';
    ctx.headers['retry-after'] = String(Math.max(1, Math.ceil((w.start + windowMs - now) / 1000)));
    throw new ApiError('rate_limited', 'rate limit exceeded for this access');
  }
  w.used += 1;
  ctx.headers['x-ratelimit-remaining'] = String(limit - w.used);
}
