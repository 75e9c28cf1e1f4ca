// OAuth 2.1 client credentials (Spring Authorization Server style: POST /oauth2/token, basic or post client
// authentication, RFC 8414 metadata), bearer authentication, the tenant header and the rate limit per
// access, tenant and environment in fixed windows.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError, type Ctx, header, JSON_TYPE } from './http.ts';
import type { State } from './store.ts';

/** The environment this deployment is: part of the rate-limit key. */
export const ENVIRONMENT = 'sandbox';

const same = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

function tokenError(ctx: Ctx, status: number, error: string, description: string): void {
  const body = JSON.stringify({ error, error_description: description });
  ctx.res.writeHead(status, { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store', 'X-Request-Id': ctx.requestId });
  ctx.res.end(body);
}

export async function tokenEndpoint(state: State, ctx: Ctx): Promise<void> {
  if (ctx.req.method !== 'POST') return tokenError(ctx, 405, 'invalid_request', 'Use POST.');
  let raw = '';
  for await (const chunk of ctx.req) raw += String(chunk);
  const form = new URLSearchParams(raw);
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(header(ctx, 'authorization') ?? '');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return tokenError(ctx, 400, 'unsupported_grant_type', 'Only client_credentials is supported.');
  }
  if (!same(id, state.clientId) || !same(secret, state.clientSecret)) {
    return tokenError(ctx, 401, 'invalid_client', 'Client authentication failed.');
  }
  const token = randomBytes(32).toString('base64url');
  const ttl = state.options.tokenTtlSeconds;
  state.tokens.set(token, { clientId: id, expiresAt: Date.now() + ttl * 1000 });
  const body = JSON.stringify({
    access_token: token,
    token_type: 'Bearer',
    expires_in: ttl,
    scope: 'connections.read connections.write',
  });
  ctx.res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  ctx.res.end(body);
}

export function metadata(ctx: Ctx): void {
  const body = JSON.stringify({
    issuer: ctx.origin,
    token_endpoint: `${ctx.origin}/oauth2/token`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: ['connections.read', 'connections.write'],
  });
  ctx.res.writeHead(200, { 'Content-Type': JSON_TYPE });
  ctx.res.end(body);
}

/** Token (401), tenant header (400), rate limit (429), tenant released (403): in that order. */
export function authenticate(state: State, ctx: Ctx): void {
  const m = /^Bearer\s+(\S+)$/i.exec(header(ctx, 'authorization') ?? '');
  const entry = m?.[1] ? state.tokens.get(m[1]) : undefined;
  if (!entry || entry.expiresAt <= Date.now()) {
    throw new ApiError(
      'unauthorized',
      entry ? 'The access token has expired.' : 'No valid bearer token was sent.',
      'Request a new access token at /oauth2/token and check the environment.',
      { 'WWW-Authenticate': 'Bearer realm="catalpa"' },
    );
  }
  ctx.clientId = entry.clientId;
  const tenant = header(ctx, 'x-service-tenant');
  if (!tenant) {
    throw new ApiError(
      'invalid_request',
      'Header x-service-tenant is missing.',
      'Send the tenant identifier in x-service-tenant.',
    );
  }
  countCall(state, ctx, `${entry.clientId}|${tenant}|${ENVIRONMENT}`);
  if (!state.tenants.released.includes(tenant)) {
    const known = state.tenants.known.includes(tenant);
    throw new ApiError(
      'forbidden',
      known ? 'The tenant is not released for this access.' : 'The tenant is not released for this access.',
      'Check the permissions of the access in the developer portal.',
    );
  }
  ctx.tenant = tenant;
}

function countCall(state: State, ctx: Ctx, key: string): void {
  const { rateLimit, windowMs } = state.options;
  const t = Date.now();
  let w = state.rate.get(key);
  if (!w || t - w.windowStart >= windowMs) {
    w = { windowStart: t, count: 0 };
    state.rate.set(key, w);
  }
  w.count += 1;
  const resetSeconds = Math.max(1, Math.ceil((w.windowStart + windowMs - t) / 1000));
  ctx.rateHeaders = {
    'X-RateLimit-Limit': String(rateLimit),
    'X-RateLimit-Remaining': String(Math.max(0, rateLimit - w.count)),
    'X-RateLimit-Reset': String(resetSeconds),
  };
  if (w.count > rateLimit) {
    throw new ApiError(
      'rate_limited',
      `More than ${rateLimit} calls in this window.`,
      `Wait ${resetSeconds} s, then retry with growing intervals.`,
      { 'Retry-After': String(resetSeconds) },
    );
  }
}
