// OAuth client credentials (Doorkeeper-style /oauth/token, client_secret_basic only, opaque 3600 s tokens)
// and the per-call checks: bearer token, rate limit, then the tenant header.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Call, header, readBody } from './http.ts';
import type { State } from './state.ts';

export const TOKEN_PATH = '/oauth/token';
export const TOKEN_LIFETIME_S = 3600;

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  const extra: Record<string, string> = status === 401 ? { 'WWW-Authenticate': 'Basic realm="alder"' } : {};
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...extra });
  res.end(JSON.stringify({ error, error_description: description }));
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** POST /oauth/token: grant_type=client_credentials, client authenticated by HTTP Basic only. */
export async function tokenEndpoint(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return oauthError(res, 405, 'invalid_request', 'use POST');
  const form = new URLSearchParams(await readBody(req).catch(() => ''));
  const auth = header(req, 'authorization') ?? '';
  if (!auth.toLowerCase().startsWith('basic ')) {
    return oauthError(res, 401, 'invalid_client', 'client authentication must use client_secret_basic');
  }
  const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const id = decodeURIComponent(decoded.slice(0, Math.max(colon, 0)));
  const secret = decodeURIComponent(decoded.slice(colon + 1));
  const client = state.clients.get(id);
  if (colon < 0 || !client || !same(client.secret, secret)) {
    return oauthError(res, 401, 'invalid_client', 'client authentication failed');
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return oauthError(res, 400, 'unsupported_grant_type', 'only client_credentials is supported');
  }
  const token = randomBytes(24).toString('base64url');
  state.tokens.set(token, { clientId: id, expiresAt: Date.now() + TOKEN_LIFETIME_S * 1000 });
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(
    JSON.stringify({
      access_token: token,
      token_type: 'Bearer',
      expires_in: TOKEN_LIFETIME_S,
      scope: 'public',
      created_at: Math.floor(Date.now() / 1000),
    }),
  );
}

/** RFC 8414 metadata, so clients find the token endpoint and its one auth method. */
export function metadata(origin: string): Record<string, unknown> {
  return {
    issuer: origin,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic'],
    scopes_supported: ['public'],
  };
}

/** Bearer token first (401), the rate-limit key needs the client. */
export function authenticate(state: State, call: Call): void {
  const auth = header(call.req, 'authorization') ?? '';
  const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  const rec = m ? state.tokens.get(m[1] ?? '') : undefined;
  if (!rec || rec.expiresAt <= Date.now()) {
    if (rec && m) state.tokens.delete(m[1] ?? '');
    throw new ApiError(
      'unauthorized',
      m ? 'Access token is invalid or expired' : 'Access token missing',
      undefined,
      'request a new access token and check the environment',
    );
  }
  call.clientId = rec.clientId;
}

/** The tenant header: missing 400, not released for this client (or unknown) 403. */
export function authorizeTenant(state: State, call: Call): void {
  const tenant = header(call.req, 'x-service-tenant')?.trim();
  if (!tenant) {
    throw new ApiError('invalid_request', 'Header x-service-tenant is required', undefined, 'name the tenant');
  }
  const client = state.clients.get(call.clientId ?? '');
  if (!client || !state.tenants.has(tenant) || !client.tenants.includes(tenant)) {
    throw new ApiError('forbidden', 'This access is not released for the tenant', undefined, 'check the permissions');
  }
  call.tenant = tenant;
}

// Rate limit: a token bucket per access (client), tenant and environment: `rateLimit` tokens, refilled
// continuously so an empty bucket is full again after `windowMs`. Headers on every counted answer.
const ENVIRONMENT = 'sandbox';

export function takeToken(state: State, call: Call): void {
  const { rateLimit: limit, windowMs } = state.options;
  const perMs = limit / windowMs;
  const tenant = header(call.req, 'x-service-tenant')?.trim() ?? '';
  const key = `${call.clientId}|${tenant}|${ENVIRONMENT}`;
  const t = Date.now();
  const bucket = state.buckets.get(key) ?? { tokens: limit, at: t };
  bucket.tokens = Math.min(limit, bucket.tokens + (t - bucket.at) * perMs);
  bucket.at = t;
  state.buckets.set(key, bucket);
  const allowed = bucket.tokens >= 1;
  if (allowed) bucket.tokens -= 1;
  const remaining = Math.floor(bucket.tokens);
  // X-RateLimit-Reset: seconds until the bucket is full again (delta seconds, like Retry-After).
  const reset = Math.ceil((limit - bucket.tokens) / perMs / 1000);
  call.headers['X-RateLimit-Limit'] = String(limit);
  call.headers['X-RateLimit-Remaining'] = String(allowed ? remaining : 0);
  call.headers['X-RateLimit-Reset'] = String(reset);
  if (!allowed) {
    const wait = Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
    call.headers['Retry-After'] = String(wait);
    throw new ApiError('rate_limited', 'Too many calls', `retry after ${wait} s`, 'retry with growing intervals');
  }
}
