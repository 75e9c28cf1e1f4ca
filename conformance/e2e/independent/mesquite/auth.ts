// What Choreo's gateway does before the Ballerina service sees a call: the client-credentials token endpoint
// (`/oauth2/token`, WSO2 Identity Server conventions), bearer validation, the tenant header, and the
// subscription tier's rate limit per client, tenant and environment.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError, type Ctx, sendJson } from './http.ts';

export const TOKEN_PATH = '/oauth2/token';

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** WSO2's token errors are OAuth errors (RFC 6749 §5.2), not the service's envelope. */
function oauthError(ctx: Ctx, status: number, error: string, description: string): void {
  const headers: Record<string, string> = { 'cache-control': 'no-store' };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="choreo"';
  sendJson(ctx, status, { error, error_description: description }, headers);
}

export function tokenEndpoint(ctx: Ctx): void {
  if (ctx.method !== 'POST') {
    oauthError(ctx, 405, 'invalid_request', 'Use POST.');
    return;
  }
  const form = new URLSearchParams(ctx.raw);
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(ctx.req.headers.authorization ?? '');
  if (basic?.[1] && ctx.store.options.tokenAuth === 'post') {
    oauthError(
      ctx,
      401,
      'invalid_client',
      'Client Authentication failed: send client_id and client_secret in the form.',
    );
    return;
  }
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    oauthError(ctx, 400, 'unsupported_grant_type', 'Only client_credentials is enabled for this application.');
    return;
  }
  const { store } = ctx;
  if (!same(id, store.clientId) || !same(secret, store.clientSecret)) {
    oauthError(ctx, 401, 'invalid_client', 'Client Authentication failed.');
    return;
  }
  // Choreo issues opaque-looking reference tokens to the gateway's consumers; the lifetime is the app's setting.
  const token = randomBytes(24).toString('hex');
  store.tokens.set(token, { clientId: id, expiresAt: Date.now() + store.options.tokenSeconds * 1000 });
  sendJson(
    ctx,
    200,
    {
      access_token: token,
      scope: form.get('scope') || 'default',
      token_type: 'Bearer',
      expires_in: store.options.tokenSeconds,
    },
    { 'cache-control': 'no-store' },
  );
}

/** The gateway's checks, in its order: token, then tenant, then the rate limit (only signed-in calls count). */
export function authenticate(ctx: Ctx): void {
  const { store } = ctx;
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '');
  const entry = m?.[1] ? store.tokens.get(m[1]) : undefined;
  if (!entry || entry.expiresAt <= Date.now()) {
    throw new ApiError(
      'unauthorized',
      'Invalid Credentials. Make sure you have provided the correct security credentials.',
      'Request a new access token and check the environment.',
      { 'www-authenticate': 'Bearer realm="choreo"' },
    );
  }
  ctx.clientId = entry.clientId;
  const tenant = ctx.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant.trim() === '') {
    throw new ApiError('invalid_request', 'Header x-service-tenant is required.', 'Send the tenant identifier.');
  }
  // An unknown tenant and a tenant not released to this client look the same: no tenant list leaks.
  if (!store.released.has(tenant)) {
    throw new ApiError(
      'forbidden',
      'This application is not subscribed for the tenant.',
      'Check the permissions of the access.',
    );
  }
  ctx.tenant = tenant;
  countCall(ctx);
}

function countCall(ctx: Ctx): void {
  const { store } = ctx;
  const { rateLimit, windowMs } = store.options;
  const key = `${ctx.clientId}|${ctx.tenant}|sandbox`;
  const now = Date.now();
  let slot = store.rate.get(key);
  if (!slot || now - slot.windowStart >= windowMs) {
    slot = { windowStart: now, used: 0 };
    store.rate.set(key, slot);
  }
  slot.used += 1;
  const remaining = Math.max(0, rateLimit - slot.used);
  ctx.limitHeaders = { 'x-ratelimit-limit': String(rateLimit), 'x-ratelimit-remaining': String(remaining) };
  if (slot.used > rateLimit) {
    const wait = Math.max(1, Math.ceil((slot.windowStart + windowMs - now) / 1000));
    throw new ApiError(
      'rate_limited',
      'Message throttled out: the quota of the application tier was exceeded.',
      'Respect Retry-After and retry with growing intervals.',
      { 'retry-after': String(wait) },
    );
  }
}
