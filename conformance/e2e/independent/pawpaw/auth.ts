// Micronaut Security: an OAuth client-credentials token endpoint issuing HS256 JWTs, the bearer check,
// the tenant header (released tenants only) and the rate limiter (per access, tenant and environment).
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { bad, type Ctx, HttpProblem, sendJson } from './http.ts';
import type { Rec, Store } from './state.ts';

export const TOKEN_PATH = '/oauth/access_token';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

function sign(store: Store, claims: Rec): string {
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${head}.${createHmac('sha256', store.jwtSecret).update(head).digest('base64url')}`;
}

function verify(store: Store, token: string): Rec | undefined {
  const [h, p, s] = token.split('.');
  if (!h || !p || !s) return undefined;
  const want = createHmac('sha256', store.jwtSecret).update(`${h}.${p}`).digest();
  const got = Buffer.from(s, 'base64url');
  if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Rec;
  return typeof claims.exp === 'number' && claims.exp * 1000 > Date.now() ? claims : undefined;
}

/** POST /oauth/access_token: grant_type=client_credentials, client_secret_basic or client_secret_post. */
export function tokenEndpoint(store: Store, ctx: Ctx) {
  const form = new URLSearchParams(ctx.raw);
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(ctx.headers.authorization ?? '');
  if (basic?.[1] && store.options.tokenAuth === 'post') return oauthError(401, 'invalid_client');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  function oauthError(status: number, error: string) {
    return sendJson(ctx, status, { error, error_description: error.replaceAll('_', ' ') }, 'application/json', {
      'cache-control': 'no-store',
    });
  }
  if (form.get('grant_type') !== 'client_credentials') return oauthError(400, 'unsupported_grant_type');
  const client = store.clients.get(id);
  if (!client || client.secret !== secret) return oauthError(401, 'invalid_client');
  const now = Math.floor(Date.now() / 1000);
  const ttl = store.options.tokenTtlSeconds;
  const claims = { sub: id, iss: 'pawpaw', iat: now, nbf: now, exp: now + ttl, jti: randomUUID(), roles: ['PARTNER'] };
  sendJson(
    ctx,
    200,
    { access_token: sign(store, claims), token_type: 'Bearer', expires_in: ttl, username: id, roles: ['PARTNER'] },
    'application/json',
    { 'cache-control': 'no-store' },
  );
}

/** The bearer token, then the tenant header: 401 before 400/403, as Micronaut's security filter runs first. */
export function authenticate(store: Store, ctx: Ctx) {
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.headers.authorization ?? '');
  const claims = m?.[1] ? verify(store, m[1]) : undefined;
  if (!claims)
    throw new HttpProblem('unauthorized', 'Authentication required', undefined, 'Request a new access token.');
  const tenant = ctx.headers['x-service-tenant'];
  if (!tenant) throw bad('Required header x-service-tenant not specified');
  const client = store.clients.get(String(claims.sub));
  if (!client?.tenants.includes(tenant))
    throw new HttpProblem('forbidden', 'Tenant not released for this access', undefined, 'Check the permissions.');
  ctx.tenant = tenant;
  ctx.clientId = String(claims.sub);
}

/** Fixed window per access, tenant and environment; returns the headers every counted answer carries. */
export function rateLimit(store: Store, ctx: Ctx, publicLimit?: number): Rec {
  const { windowMs } = store.options;
  const limit = publicLimit ?? store.options.rateLimit;
  // Public routes are counted per client address, as the filter sees no access there.
  const key = publicLimit ? `public|${ctx.req.socket.remoteAddress}` : `${ctx.clientId}|${ctx.tenant}|sandbox`;
  const now = Date.now();
  let w = store.rate.get(key);
  if (!w || now - w.start >= windowMs) {
    w = { start: now, count: 0 };
    store.rate.set(key, w);
  }
  w.count += 1;
  const headers: Rec = {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(Math.max(0, limit - w.count)),
  };
  if (w.count > limit) {
    const wait = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
    const p = new HttpProblem('rate_limited', 'Too many requests', `retry after ${wait} s`, 'Respect Retry-After.');
    p.headers = { ...headers, 'retry-after': String(wait) };
    throw p;
  }
  return headers;
}
