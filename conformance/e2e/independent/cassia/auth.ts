// The auth, tenant and version interceptors, and the OAuth 2.1 client-credentials token endpoint
// (buddy-auth style: opaque bearer tokens kept server-side, client_secret_basic or client_secret_post).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { type Ctx, fail, sendJson } from './http.ts';
import { VERSIONS } from './state.ts';

export const TOKEN_PATH = '/auth/oauth2/token';

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

function oauthError(ctx: Ctx, status: number, error: string, description: string) {
  ctx.headers['www-authenticate'] = 'Basic realm="cassia"';
  sendJson(ctx, status, { error, error_description: description });
}

/** POST /auth/oauth2/token: form-encoded, RFC 6749 answers (not the API's envelope: it is the auth server). */
export function tokenEndpoint(ctx: Ctx) {
  if (ctx.req.method !== 'POST') return oauthError(ctx, 405, 'invalid_request', 'POST only');
  const form = new URLSearchParams(ctx.raw);
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^basic\s+(.+)$/i.exec(ctx.req.headers.authorization ?? '');
  if (basic?.[1] && ctx.store.opts.tokenAuth === 'post')
    return oauthError(ctx, 401, 'invalid_client', 'client_secret_post only');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (form.get('grant_type') !== 'client_credentials')
    return oauthError(ctx, 400, 'unsupported_grant_type', 'client_credentials only');
  const client = ctx.store.clients.get(id);
  if (!client || !same(client.secret, secret)) return oauthError(ctx, 401, 'invalid_client', 'Unknown client');
  const token = `cat_${randomBytes(24).toString('base64url')}`;
  const ttl = ctx.store.opts.tokenTtl;
  ctx.store.tokens.set(token, { clientId: id, expires: Date.now() + ttl * 1000 });
  sendJson(ctx, 200, {
    access_token: token,
    token_type: 'Bearer',
    expires_in: ttl,
    scope: form.get('scope') ?? 'connections:read connections:write',
  });
}

/** The authentication interceptor: a live bearer token, then a tenant released to its client. */
export function authenticate(ctx: Ctx) {
  const m = /^bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '');
  const token = m?.[1] ? ctx.store.tokens.get(m[1]) : undefined;
  if (!token || token.expires <= Date.now()) {
    ctx.headers['www-authenticate'] = 'Bearer realm="cassia"';
    fail('unauthorized', 'Not signed in', 'Bearer token missing, unknown or expired', 'Request a new access token');
  }
  ctx.clientId = token?.clientId;
  const tenant = ctx.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant === '')
    fail('invalid_request', 'Tenant header missing', 'x-service-tenant is required');
  const client = ctx.store.clients.get(ctx.clientId ?? '');
  if (!client?.tenants.includes(tenant as string))
    fail('forbidden', 'Tenant not released for this access', undefined, 'Check the permissions of the access');
  ctx.tenant = tenant as string;
}

/** Service-Version: optional; a value it does not know is refused rather than guessed. */
export function serviceVersion(ctx: Ctx) {
  const v = ctx.req.headers['service-version'];
  if (v === undefined) {
    if (ctx.store.opts.requireServiceVersion) fail('invalid_request', 'Service-Version header required');
    return;
  }
  if (typeof v !== 'string' || !VERSIONS.includes(v))
    fail('invalid_request', 'Unknown Service-Version', `Known versions: ${VERSIONS.join(', ')}`);
}

/** Token bucket per access, tenant and environment (an atom of buckets in the Clojure original). */
export function rateLimit(ctx: Ctx, env: string) {
  const { burst, refillPerSecond } = ctx.store.opts;
  const key = `${ctx.clientId}|${ctx.tenant}|${env}`;
  const now = Date.now();
  const b = ctx.store.buckets.get(key) ?? { tokens: burst, at: now };
  b.tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * refillPerSecond);
  b.at = now;
  ctx.store.buckets.set(key, b);
  ctx.headers['x-ratelimit-limit'] = String(burst);
  if (b.tokens < 1) {
    ctx.headers['x-ratelimit-remaining'] = '0';
    ctx.headers['retry-after'] = String(Math.max(1, Math.ceil((1 - b.tokens) / refillPerSecond)));
    fail('rate_limited', 'Too many calls', undefined, 'Wait for Retry-After seconds, then retry with backoff');
  }
  b.tokens -= 1;
  ctx.headers['x-ratelimit-remaining'] = String(Math.floor(b.tokens));
}
