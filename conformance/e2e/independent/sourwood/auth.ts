// Client credentials at /oauth2/token issuing HS256 JWTs (lua-resty-jwt sign/verify), the tenant header
// checked against the client's released tenants, and resty.limit.count's fixed window per client, tenant and
// environment with its X-RateLimit-* headers.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError, type Ctx, cjson, type Rec } from './http.ts';
import { KNOWN, RELEASED, type Store } from './state.ts';

export const CLIENT_ID = 'sourwood-ci';
const JWT_KEY = randomBytes(32);

const b64u = (s: string | Buffer): string => Buffer.from(s).toString('base64url');

function sign(claims: Rec): string {
  const head = `${b64u(JSON.stringify({ typ: 'JWT', alg: 'HS256' }))}.${b64u(JSON.stringify(claims))}`;
  return `${head}.${b64u(createHmac('sha256', JWT_KEY).update(head).digest())}`;
}

function verify(token: string): Rec | undefined {
  const [h, p, s] = token.split('.');
  if (!h || !p || !s) return undefined;
  const want = createHmac('sha256', JWT_KEY).update(`${h}.${p}`).digest();
  const got = Buffer.from(s, 'base64url');
  if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Rec;
    return typeof claims.exp === 'number' && claims.exp > Date.now() / 1000 ? claims : undefined;
  } catch {
    return undefined;
  }
}

/** POST /oauth2/token: client_secret_basic or client_secret_post, an RFC 6749 error object otherwise. */
export function tokenEndpoint(store: Store, secret: string, form: URLSearchParams, authz: string | undefined) {
  let id = form.get('client_id');
  let sec = form.get('client_secret');
  if (authz?.toLowerCase().startsWith('basic ') && store.options.tokenAuth === 'post') {
    // The team's endpoint reads ngx.req.get_post_args() only: a Basic header is refused, as RFC 6749 allows.
    return { status: 401, body: { error: 'invalid_client', error_description: 'use client_secret_post' } };
  }
  if (authz?.toLowerCase().startsWith('basic ')) {
    const [u, pw] = Buffer.from(authz.slice(6), 'base64').toString().split(':');
    id = decodeURIComponent(u ?? '');
    sec = decodeURIComponent(pw ?? '');
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return { status: 400, body: { error: 'unsupported_grant_type' } };
  }
  if (id !== CLIENT_ID || sec !== secret) return { status: 401, body: { error: 'invalid_client' } };
  const now = Math.floor(Date.now() / 1000);
  const ttl = store.options.tokenTtl;
  const token = sign({ sub: id, iat: now, exp: now + ttl, jti: randomBytes(8).toString('hex'), scope: 'ncs' });
  return {
    status: 200,
    body: {
      access_token: token,
      token_type: store.options.lowerTokenType ? 'bearer' : 'Bearer',
      expires_in: ttl,
      scope: 'ncs',
    },
  };
}

export const tokenJson = (body: Rec): string => cjson(body);

/** The access behind a call: a valid bearer token, then a released tenant. Returns the tenant. */
export function authenticate(ctx: Ctx): { tenant: string; client: string } {
  const h = ctx.req.headers.authorization ?? '';
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  const claims = m?.[1] ? verify(m[1]) : undefined;
  if (!claims) {
    ctx.headers['www-authenticate'] = 'Bearer realm="sourwood", error="invalid_token"';
    throw new ApiError(401, 'unauthorized', 'a valid bearer token is required');
  }
  const tenant = ctx.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant === '') {
    throw new ApiError(400, 'invalid_request', 'header x-service-tenant is required');
  }
  if (!KNOWN.has(tenant) || !RELEASED.has(tenant)) {
    throw new ApiError(403, 'forbidden', 'tenant is not released to this access');
  }
  return { tenant, client: String(claims.sub) };
}

interface Window {
  start: number;
  count: number;
}
const windows = new WeakMap<Store, Map<string, Window>>();

/** resty.limit.count: a fixed window per key; the headers on every counted answer, 429 past the limit. */
export function rateLimit(store: Store, ctx: Ctx, key: string): void {
  let byKey = windows.get(store);
  if (!byKey) {
    byKey = new Map();
    windows.set(store, byKey);
  }
  const { rateLimit: limit, windowMs } = store.options;
  const now = Date.now();
  let w = byKey.get(key);
  if (!w || now - w.start >= windowMs) {
    w = { start: now, count: 0 };
    byKey.set(key, w);
  }
  w.count += 1;
  ctx.headers['x-ratelimit-limit'] = String(limit);
  ctx.headers['x-ratelimit-remaining'] = String(Math.max(0, limit - w.count));
  if (w.count > limit) {
    ctx.headers['retry-after'] = String(Math.max(1, Math.ceil((w.start + windowMs - now) / 1000)));
    throw new ApiError(429, 'rate_limited', 'too many calls in this window');
  }
}
