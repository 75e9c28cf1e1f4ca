// OAuth client credentials at /oauth2/token (the team's own `auth` module on wisp), bearer checks, tenant
// release and the per client/tenant/environment rate-limit bucket.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError, type Ctx, send } from './http.ts';
import type { Store } from './state.ts';

export const CLIENT_ID = 'bayberry-ci';
export const CLIENT_SECRET = 'bby_sk_9c1f3e0a7d5b42e8a6f0c3d1b7e9a254';
/** Tenants released to the client; `fjord-bistro` exists but is not released to it (403). */
export const RELEASED = ['lakeside-cafe', 'harbor-grill'];
export const EXISTING = [...RELEASED, 'fjord-bistro'];

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** RFC 6749 token endpoint: client_secret_basic or client_secret_post, RFC 6749 error bodies. */
export function tokenEndpoint(store: Store, ctx: Ctx): void {
  const form = new URLSearchParams(ctx.raw);
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic (.+)$/i.exec(ctx.req.headers.authorization ?? '');
  if (basic && store.options.tokenAuth !== 'post') {
    const [u, p] = Buffer.from(basic[1] ?? '', 'base64')
      .toString('utf8')
      .split(':');
    id = decodeURIComponent(u ?? '');
    secret = decodeURIComponent(p ?? '');
  }
  const noStore = { 'cache-control': 'no-store' };
  if (form.get('grant_type') !== 'client_credentials') {
    send(ctx, 400, { error: 'unsupported_grant_type' }, noStore);
    return;
  }
  if (!same(id, CLIENT_ID) || !same(secret, CLIENT_SECRET)) {
    send(ctx, 401, { error: 'invalid_client' }, { ...noStore, 'www-authenticate': 'Basic realm="bayberry"' });
    return;
  }
  const lifetime = store.options.tokenLifetimeS ?? 300;
  const token = `bby_at_${randomBytes(24).toString('base64url')}`;
  store.tokens.set(token, { clientId: id, expires: Date.now() + lifetime * 1000 });
  const body: Record<string, unknown> = { access_token: token, token_type: 'Bearer', expires_in: lifetime };
  if (form.get('scope')) body.scope = form.get('scope');
  send(ctx, 200, body, noStore);
}

/** Bearer token, then tenant: 401 before 400 before 403, so nothing about tenants leaks to a stranger. */
export function authenticate(store: Store, ctx: Ctx): void {
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '');
  const t = m ? store.tokens.get(m[1] ?? '') : undefined;
  if (!t || t.expires <= Date.now()) {
    throw new ApiError(401, 'unauthorized', 'Access token missing or expired', undefined, {
      'www-authenticate': 'Bearer realm="bayberry"',
    });
  }
  ctx.clientId = t.clientId;
  const tenant = ctx.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant.length === 0)
    throw new ApiError(400, 'invalid_request', 'Request is invalid', 'x-service-tenant: header missing');
  if (!RELEASED.includes(tenant)) throw new ApiError(403, 'forbidden', 'Tenant is not released to this access');
  ctx.tenant = tenant;
}

/** A fixed window per client, tenant and environment (the deployment is one environment: sandbox). */
export function rateLimit(store: Store, ctx: Ctx): Record<string, string> {
  const limit = store.options.rateLimit ?? 600;
  const windowMs = store.options.windowMs ?? 60_000;
  const key = `${ctx.clientId}|${ctx.tenant}|sandbox`;
  const now = Date.now();
  let b = store.rate.get(key);
  if (!b || now - b.start >= windowMs) {
    b = { start: now, count: 0 };
    store.rate.set(key, b);
  }
  const reset = Math.max(1, Math.ceil((b.start + windowMs - now) / 1000));
  if (b.count >= limit) {
    const headers = { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': '0', 'retry-after': String(reset) };
    throw new ApiError(429, 'rate_limited', 'Too many calls in this window', `retry after ${reset} s`, headers);
  }
  b.count++;
  return { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(limit - b.count) };
}
