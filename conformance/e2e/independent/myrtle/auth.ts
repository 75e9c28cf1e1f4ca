// Authlib-style client credentials token endpoint plus the bearer, tenant and moving-window rate-limit
// middlewares (the limits library's MovingWindowRateLimiter, keyed per client, tenant and environment).
import { randomBytes } from 'node:crypto';
import { ApiError, type Ctx, ok, pyDumps } from './http.ts';
import type { Store } from './state.ts';

export const CLIENT_ID = 'myrtle-ci';
export const CLIENT_SECRET = 'myrtle-secret-0f3c9a';
export const TENANTS = {
  tenant: 'b1f0e0c2-tenant-alder-cafe',
  other: 'b1f0e0c2-tenant-birch-bistro',
  foreign: 'b1f0e0c2-tenant-cedar-diner',
};
const RELEASED = new Set([TENANTS.tenant, TENANTS.other]);
const KNOWN = new Set([...RELEASED, TENANTS.foreign]);

/** POST /oauth2/token: client_secret_basic or client_secret_post, RFC 6749 error bodies (Authlib's). */
export function tokenEndpoint(s: Store, ctx: Ctx): void {
  const form = new URLSearchParams(ctx.raw);
  let id = form.get('client_id');
  let secret = form.get('client_secret');
  const basic = /^Basic (.+)$/i.exec(String(ctx.req.headers.authorization ?? ''));
  if (basic?.[1]) {
    const [u, p] = Buffer.from(basic[1], 'base64').toString().split(':');
    id = decodeURIComponent(u ?? '');
    secret = decodeURIComponent(p ?? '');
  }
  const reply = (status: number, body: unknown) => {
    ctx.res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    ctx.res.end(pyDumps(body));
  };
  if (form.get('grant_type') !== 'client_credentials') {
    reply(400, { error: 'unsupported_grant_type' });
    return;
  }
  if (id !== CLIENT_ID || secret !== CLIENT_SECRET) {
    reply(401, { error: 'invalid_client' });
    return;
  }
  const token = randomBytes(24).toString('base64url');
  s.tokens.set(token, { clientId: CLIENT_ID, exp: Date.now() + s.opts.tokenTtlSec * 1000 });
  reply(200, {
    access_token: token,
    token_type: 'Bearer',
    expires_in: s.opts.tokenTtlSec,
    scope: form.get('scope') ?? '',
  });
}

/** The bearer and tenant middlewares: 401 before 403, tenant header read case-insensitively by node. */
export function authenticate(s: Store, ctx: Ctx): void {
  const m = /^Bearer (.+)$/i.exec(String(ctx.req.headers.authorization ?? ''));
  const t = m?.[1] ? s.tokens.get(m[1]) : undefined;
  if (!t || t.exp < Date.now()) throw new ApiError('unauthorized', 'Missing or expired access token.');
  ctx.clientId = t.clientId;
  const tenant = ctx.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || !tenant)
    throw new ApiError('invalid_request', 'Header x-service-tenant is required.');
  if (!KNOWN.has(tenant)) throw new ApiError('forbidden', 'Tenant is not released for this access.');
  if (!RELEASED.has(tenant)) throw new ApiError('forbidden', 'Tenant is not released for this access.');
  ctx.tenant = tenant;
  rateLimit(s, ctx);
}

function rateLimit(s: Store, ctx: Ctx): void {
  const key = `${ctx.clientId}/${ctx.tenant}/sandbox`;
  const now = Date.now();
  const hits = (s.hits.get(key) ?? []).filter((h) => h > now - s.opts.windowMs);
  s.hits.set(key, hits);
  const limit = s.opts.rateLimit;
  if (hits.length >= limit) {
    const wait = Math.max(1, Math.ceil(((hits[0] ?? now) + s.opts.windowMs - now) / 1000));
    ctx.headers = {
      ...ctx.headers,
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': '0',
      'Retry-After': String(wait),
    };
    throw new ApiError('rate_limited', 'Too many requests; retry after the indicated wait.');
  }
  hits.push(now);
  ctx.headers = {
    ...ctx.headers,
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(limit - hits.length),
  };
}

export { ok };
