// OAuth client credentials at Teak's own `/auth/token` (a Kemal route in front of the API, form-encoded,
// client_secret_basic or client_secret_post), bearer verification, the tenant header and the rate limit.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Ctx, halt } from './http.ts';
import type { Store } from './state.ts';

export const TOKEN_PATH = '/auth/token';

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify({ error, error_description: description }));
}

/** RFC 6749 token endpoint: its errors are OAuth's own shape, not the API's failure envelope. */
export function tokenEndpoint(store: Store, req: IncomingMessage, res: ServerResponse, raw: string): void {
  if (req.method !== 'POST') {
    oauthError(res, 405, 'invalid_request', 'POST only');
    return;
  }
  const form = new URLSearchParams(raw);
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic?.[1] && store.options.tokenAuth === 'post') {
    oauthError(res, 401, 'invalid_client', 'send client_id and client_secret in the form');
    return;
  }
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, colon));
    secret = decodeURIComponent(decoded.slice(colon + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    oauthError(res, 400, 'unsupported_grant_type', 'only client_credentials is offered');
    return;
  }
  if (!same(id, store.clientId) || !same(secret, store.clientSecret)) {
    oauthError(res, 401, 'invalid_client', 'client authentication failed');
    return;
  }
  const token = `tk_${randomBytes(24).toString('base64url')}`;
  const ttl = store.options.tokenTtlSec;
  store.tokens.set(token, { clientId: id, expiresAt: Date.now() + ttl * 1000 });
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: ttl, scope: 'ncs.public' }));
}

/** The bearer's client, or undefined when there is none or it has expired. */
export function bearerClient(store: Store, ctx: Ctx): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '');
  const t = m?.[1] ? store.tokens.get(m[1]) : undefined;
  if (!t || t.expiresAt <= Date.now()) return undefined;
  return t.clientId;
}

/** Kemal `before_all` filter of authenticated routes: token, tenant, then the rate limit. */
export function authenticate(store: Store, ctx: Ctx): void {
  const client = bearerClient(store, ctx);
  if (!client) halt('unauthorized', 'a valid bearer token is required');
  const tenant = ctx.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant.trim() === '')
    halt('invalid_request', 'header x-service-tenant is required');
  if (!store.released.has(tenant)) halt('forbidden', 'tenant not released to this access');
  ctx.clientId = client;
  ctx.tenant = tenant;
  countCall(store, ctx, `${client}:${tenant}:sandbox`);
}

/** A fixed window per access, tenant and environment; public calls are counted per remote address. */
export function countCall(store: Store, ctx: Ctx, bucket: string): void {
  const { rateLimit, windowMs } = store.options;
  const now = Date.now();
  let w = store.rate.get(bucket);
  if (!w || now - w.windowStart >= windowMs) {
    w = { windowStart: now, count: 0 };
    store.rate.set(bucket, w);
  }
  w.count += 1;
  const resetSec = Math.max(1, Math.ceil((w.windowStart + windowMs - now) / 1000));
  ctx.rateHeaders = {
    'X-RateLimit-Limit': String(rateLimit),
    'X-RateLimit-Remaining': String(Math.max(0, rateLimit - w.count)),
    'X-RateLimit-Reset': String(resetSec),
  };
  if (w.count > rateLimit) halt('rate_limited', `limit ${rateLimit} per window`, { 'Retry-After': String(resetSec) });
}
