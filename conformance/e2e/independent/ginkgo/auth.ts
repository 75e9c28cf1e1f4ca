// The OAuth 2.1 client-credentials token endpoint, bearer authentication, tenant release and the rate
// limiter (fixed 15 s windows per token and tenant; the window is an option so tests meet 429s quickly).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Call, HttpError } from './http-kit.ts';

export interface AuthState {
  clientId: string;
  clientSecret: string;
  released: Set<string>;
  known: Set<string>;
  tokenTtlMs: number;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  rateLimit: number;
  windowMs: number;
  windows: Map<string, { start: number; count: number }>;
}

function tokenError(res: ServerResponse, status: number, error: string, description: string): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="ginkgo"';
  res.writeHead(status, headers);
  res.end(JSON.stringify({ error, error_description: description }));
}

/** POST /api/public/v1/auth/token: form body, client_secret_basic or client_secret_post. */
export function tokenEndpoint(state: AuthState, req: IncomingMessage, res: ServerResponse, text: string): void {
  const form = new URLSearchParams(text);
  let id = form.get('client_id') ?? undefined;
  let secret = form.get('client_secret') ?? undefined;
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const at = decoded.indexOf(':');
    try {
      id = decodeURIComponent(decoded.slice(0, Math.max(0, at)));
      secret = decodeURIComponent(decoded.slice(at + 1));
    } catch {
      id = undefined; // malformed percent-encoding: no client
    }
  }
  if (form.get('grant_type') !== 'client_credentials') {
    tokenError(res, 400, 'unsupported_grant_type', 'grant_type must be client_credentials');
    return;
  }
  if (id !== state.clientId || secret !== state.clientSecret) {
    tokenError(res, 401, 'invalid_client', 'unknown client or wrong secret');
    return;
  }
  const token = `gk_${randomBytes(24).toString('base64url')}`;
  state.tokens.set(token, { clientId: id, expiresAt: Date.now() + state.tokenTtlMs });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
  res.end(
    JSON.stringify({
      access_token: token,
      token_type: 'Bearer',
      expires_in: Math.round(state.tokenTtlMs / 1000),
      scope: 'connections webhooks audit',
    }),
  );
}

/** Bearer token, then tenant header, then the rate limit: the order a dependency chain runs in. */
export function authenticate(state: AuthState, call: Call): void {
  const m = /^Bearer\s+(\S+)$/i.exec(call.req.headers.authorization ?? '');
  if (!m?.[1])
    throw new HttpError(
      'unauthorized',
      'Not authenticated',
      'header.authorization: Bearer token required',
      'request an access token at /api/public/v1/auth/token',
    );
  const t = state.tokens.get(m[1]);
  if (!t)
    throw new HttpError(
      'unauthorized',
      'Invalid token',
      'header.authorization: unknown token',
      'request a new access token',
    );
  if (t.expiresAt <= Date.now()) {
    state.tokens.delete(m[1]);
    throw new HttpError(
      'unauthorized',
      'Token expired',
      'header.authorization: token expired',
      'request a new access token',
    );
  }
  call.clientId = t.clientId;
  call.token = m[1];
  const raw = call.req.headers['x-service-tenant'];
  const tenant = Array.isArray(raw) ? raw[0] : raw;
  if (tenant === undefined || tenant.trim() === '')
    throw new HttpError(
      'invalid_request',
      'header.x-service-tenant: Field required',
      'header.x-service-tenant: Field required',
      'send the tenant identifier in x-service-tenant',
    );
  if (!state.released.has(tenant))
    throw new HttpError(
      'forbidden',
      'Tenant not released for this access',
      state.known.has(tenant) ? 'tenant exists but is not released for this client' : undefined,
      'check the permissions of the access',
    );
  call.tenant = tenant;
  countCall(state, call);
}

function countCall(state: AuthState, call: Call): void {
  const key = `${call.token}|${call.tenant}`;
  const now = Date.now();
  let w = state.windows.get(key);
  if (!w || now >= w.start + state.windowMs) {
    w = { start: now, count: 0 };
    state.windows.set(key, w);
  }
  w.count += 1;
  const end = w.start + state.windowMs;
  call.headers['x-ratelimit-limit'] = String(state.rateLimit);
  call.headers['x-ratelimit-remaining'] = String(Math.max(0, state.rateLimit - w.count));
  call.headers['x-ratelimit-reset'] = String(Math.ceil(end / 1000));
  if (w.count > state.rateLimit) {
    const wait = Math.max(1, Math.ceil((end - now) / 1000));
    throw new HttpError(
      'rate_limited',
      'Too many requests',
      `limit ${state.rateLimit} calls per ${state.windowMs / 1000} s per token and tenant`,
      `retry after ${wait} s`,
      { 'retry-after': String(wait) },
    );
  }
}
