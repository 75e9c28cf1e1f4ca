// The OAuth token route (the team's own small authorization server, as akka-http-oauth2 samples do: POST
// /oauth2/token, form-encoded, client_secret_basic or client_secret_post), the `authenticateOAuth2` directive,
// the tenant directive and the token-bucket throttle directive keyed per client, tenant and environment.
import { timingSafeEqual } from 'node:crypto';
import { type Ctx, Rejection, sendJson } from './http.ts';
import { type Store, secret } from './state.ts';

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** POST /oauth2/token: RFC 6749 answers (no envelope), errors as `{error, error_description}`. */
export function tokenRoute(store: Store, ctx: Ctx): unknown {
  const form = new URLSearchParams(ctx.raw);
  let id = form.get('client_id') ?? '';
  let pass = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(ctx.req.headers.authorization ?? '');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    pass = decodeURIComponent(decoded.slice(i + 1));
  }
  const deny = (status: number, error: string, description: string) =>
    sendJson(ctx, status, { error, error_description: description });
  if (form.get('grant_type') !== 'client_credentials')
    return deny(400, 'unsupported_grant_type', 'client_credentials only');
  if (!same(id, store.clientId) || !same(pass, store.clientSecret))
    return deny(401, 'invalid_client', 'bad credentials');
  const token = secret(32);
  const ttl = store.options.tokenTtlSec;
  store.tokens.set(token, { clientId: id, expiresAt: Date.now() + ttl * 1000 });
  sendJson(ctx, 200, {
    access_token: token,
    token_type: 'Bearer',
    expires_in: ttl,
    scope: 'connections webhooks audit',
  });
}

/** authenticateOAuth2 + the tenant header directive: 401 before 403, a missing header a 400. */
export function authenticate(store: Store, ctx: Ctx): void {
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '');
  const t = m?.[1] ? store.tokens.get(m[1]) : undefined;
  if (!t || t.expiresAt <= Date.now()) {
    ctx.headers['www-authenticate'] = 'Bearer realm="buttonwood"';
    throw new Rejection(
      401,
      'unauthorized',
      'The supplied authentication is invalid',
      undefined,
      'request a new token',
    );
  }
  ctx.clientId = t.clientId;
  const tenant = ctx.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant === '') throw new Rejection(400, 'invalid_request', 'Missing tenant header');
  const known = store.tenants.find((x) => x.id === tenant);
  if (!known?.released) throw new Rejection(403, 'forbidden', 'Tenant is not released for this client');
  ctx.tenant = tenant;
}

interface Bucket {
  tokens: number;
  at: number;
}
const buckets = new WeakMap<Store, Map<string, Bucket>>();

/** Token bucket: capacity `rateLimit`, refilled continuously over `windowMs`; headers on every counted answer. */
export function throttle(store: Store, ctx: Ctx): void {
  const { rateLimit, windowMs } = store.options;
  const all = buckets.get(store) ?? new Map<string, Bucket>();
  buckets.set(store, all);
  const key = `${ctx.clientId}|${ctx.tenant}|sandbox`;
  const now = Date.now();
  const b = all.get(key) ?? { tokens: rateLimit, at: now };
  b.tokens = Math.min(rateLimit, b.tokens + ((now - b.at) * rateLimit) / windowMs);
  b.at = now;
  all.set(key, b);
  ctx.headers['x-ratelimit-limit'] = String(rateLimit);
  if (b.tokens < 1) {
    const wait = Math.max(1, Math.ceil(((1 - b.tokens) * windowMs) / rateLimit / 1000));
    ctx.headers['x-ratelimit-remaining'] = '0';
    ctx.headers['retry-after'] = String(wait);
    throw new Rejection(429, 'rate_limited', 'Too many requests', undefined, `retry after ${wait} s`);
  }
  b.tokens -= 1;
  ctx.headers['x-ratelimit-remaining'] = String(Math.floor(b.tokens));
}
