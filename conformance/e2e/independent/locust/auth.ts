// Authlib's client-credentials grant as a Falcon team mounts it (POST /oauth2/token, form-encoded, the client
// authenticated by HTTP Basic or in the form), a bearer middleware, the tenant header and falcon-limiter's
// fixed windows keyed by client, tenant and environment.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError, type Ctx, send } from './http.ts';
import type { Store } from './state.ts';

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** RFC 6749 §5.2 errors (not the interface's envelope: this is the authorization server). */
function oauthError(ctx: Ctx, status: number, error: string, description: string): void {
  if (status === 401) ctx.headers['www-authenticate'] = 'Basic realm="locust"';
  ctx.headers['cache-control'] = 'no-store';
  send(ctx, status, { error, error_description: description });
}

export function tokenEndpoint(store: Store, ctx: Ctx): void {
  if (ctx.method !== 'POST') {
    oauthError(ctx, 405, 'invalid_request', 'POST only');
    return;
  }
  const form = new URLSearchParams(ctx.raw);
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(ctx.req.headers.authorization ?? '');
  if (basic?.[1] && store.options.tokenAuth === 'post') {
    // A client registered with token_endpoint_auth_method=client_secret_post: Basic is refused (RFC 6749 §5.2).
    oauthError(ctx, 401, 'invalid_client', 'client_secret_post is required for this client');
    return;
  }
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    oauthError(ctx, 400, 'unsupported_grant_type', 'only client_credentials is supported');
    return;
  }
  const client = store.clients.get(id);
  if (!client || !same(client.secret, secret)) {
    oauthError(ctx, 401, 'invalid_client', 'client authentication failed');
    return;
  }
  const token = randomBytes(32).toString('base64url');
  store.tokens.set(token, { clientId: id, expires: Date.now() + store.options.tokenTtl * 1000 });
  ctx.headers['cache-control'] = 'no-store';
  send(ctx, 200, {
    access_token: token,
    token_type: 'Bearer',
    expires_in: store.options.tokenTtl,
    scope: 'connections:read connections:write webhooks:write audit:read',
  });
}

/** The bearer middleware and the tenant check: 401 for the token, 400 without a tenant, 403 when not released. */
export function authenticate(store: Store, ctx: Ctx): void {
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '');
  const grant = m?.[1] ? store.tokens.get(m[1]) : undefined;
  if (!grant || grant.expires <= Date.now()) {
    ctx.headers['www-authenticate'] = 'Bearer realm="locust"';
    throw new ApiError('unauthorized', 'Authentication required.', undefined, 'Request a new access token.');
  }
  const tenant = ctx.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant.trim() === '') {
    throw new ApiError('invalid_request', 'Missing tenant header.', '{"x-service-tenant": ["Missing header."]}');
  }
  const client = store.clients.get(grant.clientId);
  if (!client?.tenants.includes(tenant)) {
    throw new ApiError('forbidden', 'This client may not act for the tenant.', undefined, 'Check the permissions.');
  }
  ctx.clientId = grant.clientId;
  ctx.tenant = tenant;
}

/** falcon-limiter: a fixed window per client, tenant and environment; headers on every counted answer. */
export function rateLimit(store: Store, ctx: Ctx): void {
  const key = `${ctx.clientId}|${ctx.tenant}|sandbox`;
  const now = Date.now();
  const { rateLimit: limit, windowMs } = store.options;
  let w = store.limits.get(key);
  if (!w || now - w.start >= windowMs) {
    w = { start: now, count: 0 };
    store.limits.set(key, w);
  }
  w.count += 1;
  ctx.headers['x-ratelimit-limit'] = String(limit);
  ctx.headers['x-ratelimit-remaining'] = String(Math.max(0, limit - w.count));
  if (w.count > limit) {
    const wait = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
    throw new ApiError(
      'rate_limited',
      'Rate limit exceeded.',
      `${limit} per ${windowMs / 1000} second(s)`,
      'Respect Retry-After and retry with growing intervals.',
      { 'retry-after': String(wait) },
    );
  }
}
