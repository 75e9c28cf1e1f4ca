// OAuth 2.1 client credentials (Keycloak-style realm path) and the security filter chain of every
// authenticated call: bearer token, tenant header, then the fixed-window rate limiter.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Ctx } from './http-kit.ts';
import type { State } from './store.ts';

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="larch"';
  res.writeHead(status, headers);
  res.end(JSON.stringify({ error, error_description: description }));
}

/** POST token endpoint: form body, client_secret_basic or client_secret_post (RFC 6749 §2.3.1). */
export function tokenEndpoint(state: State, req: IncomingMessage, res: ServerResponse, raw: string): void {
  if (req.method !== 'POST') {
    oauthError(res, 405, 'invalid_request', 'Use POST.');
    return;
  }
  const type = String(req.headers['content-type'] ?? '');
  if (!type.startsWith('application/x-www-form-urlencoded')) {
    oauthError(res, 400, 'invalid_request', 'The body must be application/x-www-form-urlencoded.');
    return;
  }
  const form = new URLSearchParams(raw);
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const auth = String(req.headers.authorization ?? '');
  if (auth.toLowerCase().startsWith('basic ')) {
    const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
    const at = decoded.indexOf(':');
    if (at < 0) {
      oauthError(res, 401, 'invalid_client', 'Malformed Basic credentials.');
      return;
    }
    id = decodeURIComponent(decoded.slice(0, at));
    secret = decodeURIComponent(decoded.slice(at + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    oauthError(res, 400, 'unsupported_grant_type', 'Only client_credentials is offered.');
    return;
  }
  const client = state.clients.get(id);
  if (!client || !safeEqual(client.secret, secret)) {
    oauthError(res, 401, 'invalid_client', 'Client authentication failed.');
    return;
  }
  const token = `lk_${randomBytes(24).toString('base64url')}`;
  const ttl = state.config.tokenTtlSeconds;
  state.tokens.set(token, { clientId: id, expiresAt: Date.now() + ttl * 1000, environment: 'sandbox' });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
  res.end(
    JSON.stringify({
      access_token: token,
      token_type: 'Bearer',
      expires_in: ttl,
      scope: form.get('scope') ?? 'connections',
    }),
  );
}

export type Principal = { clientId: string; tenant: string; environment: string };

function rateHeaders(limit: number, remaining: number, resetMs: number): Record<string, string> {
  return {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(Math.ceil(resetMs / 1000)),
  };
}

/**
 * The filter chain: 401 without a valid token; every call of a valid token is counted in the fixed window of
 * its client, tenant and environment (a missing tenant header counts under an empty tenant); then 400 for a
 * missing tenant header, 403 for a tenant the client is not released for, 429 past the limit.
 */
export function authenticate(state: State, ctx: Ctx): Principal {
  const auth = String(ctx.req.headers.authorization ?? '');
  const m = /^Bearer\s+(\S+)$/i.exec(auth);
  const token = m ? state.tokens.get(m[1] ?? '') : undefined;
  if (!token || token.expiresAt <= Date.now()) {
    throw new ApiError(
      'unauthorized',
      'Full authentication is required to access this resource',
      m ? 'The bearer token is unknown or has expired.' : 'No bearer token was sent in the Authorization header.',
      'Request a new access token with the client credentials flow and check the environment.',
      { 'www-authenticate': 'Bearer realm="larch", error="invalid_token"' },
    );
  }
  const tenant = String(ctx.req.headers['x-service-tenant'] ?? '').trim();
  const { rateLimit, windowMs } = state.config;
  const key = `${token.clientId}|${tenant}|${token.environment}`;
  const now = Date.now();
  let w = state.windows.get(key);
  if (!w || now - w.start >= windowMs) {
    w = { start: now, count: 0 };
    state.windows.set(key, w);
  }
  w.count += 1;
  const resetMs = w.start + windowMs - now;
  Object.assign(ctx.headers, rateHeaders(rateLimit, Math.max(0, rateLimit - w.count), w.start + windowMs));
  if (!tenant) {
    throw new ApiError(
      'invalid_request',
      'Missing tenant header',
      "Required request header 'x-service-tenant' is not present.",
      'Send the tenant identifier in x-service-tenant.',
    );
  }
  const client = state.clients.get(token.clientId);
  if (!client?.tenants.includes(tenant)) {
    throw new ApiError(
      'forbidden',
      'Access denied for tenant',
      `The client is not released for tenant '${tenant.slice(0, 80)}'.`,
      'Check the permissions of the access in the developer portal.',
    );
  }
  if (w.count > rateLimit) {
    const wait = Math.max(1, Math.ceil(resetMs / 1000));
    throw new ApiError(
      'rate_limited',
      'Rate limit exceeded',
      `More than ${rateLimit} calls in the current ${Math.round(windowMs / 1000)} s window.`,
      `Retry after ${wait} s with growing intervals.`,
      {
        'retry-after': String(wait),
      },
    );
  }
  return { clientId: token.clientId, tenant, environment: token.environment };
}
