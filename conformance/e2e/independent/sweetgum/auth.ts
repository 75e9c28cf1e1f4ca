// The OAuth side: a client-credentials token endpoint (the team's own `/oauth2/token`, as package:oauth2's
// server counterpart would name it), opaque bearer tokens, the tenant header, and a fixed-window rate limit
// per client, tenant and environment (shelf middleware order: auth, tenant, throttle, handler).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError, type Ctx, sendJson } from './http.ts';
import type { Store } from './state.ts';

export const CLIENT_ID = 'sweetgum-partner-ci';
export const TENANTS = { main: 'tnt-harbor-bistro', other: 'tnt-ridge-cafe', foreign: 'tnt-quay-diner' };
/** Tenants released to the client; the foreign one exists but is not released (403). */
const RELEASED = new Set([TENANTS.main, TENANTS.other]);

export interface Auth {
  secret: string;
  tokens: Map<string, { clientId: string; expires: number }>;
  windows: Map<string, { start: number; count: number }>;
}

export const newAuth = (): Auth => ({
  secret: randomBytes(24).toString('base64url'),
  tokens: new Map(),
  windows: new Map(),
});

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** POST /oauth2/token, form-encoded, client_secret_basic or client_secret_post (RFC 6749 errors). */
export function tokenEndpoint(store: Store, auth: Auth, ctx: Ctx, text: string): void {
  const form = new URLSearchParams(text);
  const posted = store.options.basicAuthOnly ? null : form;
  let id = posted?.get('client_id') ?? '';
  let secret = posted?.get('client_secret') ?? '';
  const basic = /^Basic (.+)$/i.exec(ctx.req.headers.authorization ?? '');
  if (basic?.[1]) {
    const raw = Buffer.from(basic[1], 'base64').toString('utf8');
    const at = raw.indexOf(':');
    id = decodeURIComponent(raw.slice(0, at));
    secret = decodeURIComponent(raw.slice(at + 1));
  }
  const oauthError = (status: number, error: string) =>
    sendJson(ctx, status, { error, error_description: null }, { 'cache-control': 'no-store' });
  if (form.get('grant_type') !== 'client_credentials') {
    oauthError(400, 'unsupported_grant_type');
    return;
  }
  if (id !== CLIENT_ID || !same(secret, auth.secret)) {
    oauthError(401, 'invalid_client');
    return;
  }
  const token = randomBytes(32).toString('base64url');
  const ttl = store.options.tokenTtlSeconds;
  auth.tokens.set(token, { clientId: id, expires: Date.now() + ttl * 1000 });
  sendJson(
    ctx,
    200,
    { access_token: token, token_type: 'Bearer', expires_in: ttl, scope: form.get('scope') ?? 'connections' },
    { 'cache-control': 'no-store' },
  );
}

/** Bearer token, then the tenant header; sets ctx.clientId and ctx.tenant. */
export function authenticate(auth: Auth, ctx: Ctx): void {
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '');
  const grant = m?.[1] ? auth.tokens.get(m[1]) : undefined;
  if (!grant || grant.expires <= Date.now()) {
    ctx.headers['www-authenticate'] = 'Bearer realm="sweetgum"';
    throw new ApiError(401, 'unauthorized', 'Missing, invalid or expired access token');
  }
  ctx.clientId = grant.clientId;
  const tenant = ctx.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant.trim() === '') {
    throw new ApiError(400, 'invalid_request', 'Header x-service-tenant is required');
  }
  if (!RELEASED.has(tenant)) {
    // Unknown and unreleased tenants answer alike, so tenant names cannot be probed.
    throw new ApiError(403, 'forbidden', 'Tenant not released to this client');
  }
  ctx.tenant = tenant;
}

/** Fixed window per client, tenant and environment; headers on every counted answer. */
export function throttle(store: Store, auth: Auth, ctx: Ctx): void {
  const { rateLimit, windowMs } = store.options;
  const key = `${ctx.clientId}|${ctx.tenant}|sandbox`;
  const now = Date.now();
  let w = auth.windows.get(key);
  if (!w || now - w.start >= windowMs) {
    w = { start: now, count: 0 };
    auth.windows.set(key, w);
  }
  w.count++;
  const resetSeconds = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
  ctx.headers['x-ratelimit-limit'] = String(rateLimit);
  ctx.headers['x-ratelimit-remaining'] = String(Math.max(0, rateLimit - w.count));
  if (w.count > rateLimit) {
    ctx.headers['retry-after'] = String(resetSeconds);
    throw new ApiError(429, 'rate_limited', 'Too many requests, retry after the wait time');
  }
}

export function info(ctx: Ctx): Record<string, unknown> {
  return {
    service: 'sweetgum',
    environment: 'sandbox',
    version: ctx.version,
    tenant: ctx.tenant,
    clientId: ctx.clientId,
    region: null,
  };
}
