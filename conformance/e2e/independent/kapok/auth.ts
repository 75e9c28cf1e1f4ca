// OAuth client credentials (opaque tokens), tenant release, and the fixed-window rate limit per token,
// tenant and environment. kapok is a sandbox deployment: every window is keyed with "sandbox".
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, bad } from './http-util.ts';
import type { State } from './state.ts';

const ENVIRONMENT = 'sandbox';

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function tokenError(res: ServerResponse, status: number, error: string, description: string): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  if (status === 401) res.setHeader('www-authenticate', 'Basic realm="kapok"');
  res.end(JSON.stringify({ error, error_description: description }));
}

/** POST /oauth/token: client_credentials, client_secret_basic or client_secret_post (form or JSON). */
export function tokenEndpoint(s: State, req: IncomingMessage, res: ServerResponse, raw: string): void {
  let form: URLSearchParams;
  if ((req.headers['content-type'] ?? '').includes('json')) {
    try {
      form = new URLSearchParams(JSON.parse(raw) as Record<string, string>);
    } catch {
      tokenError(res, 400, 'invalid_request', 'body is not valid JSON');
      return;
    }
  } else form = new URLSearchParams(raw);
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    tokenError(res, 400, 'unsupported_grant_type', 'only client_credentials is offered');
    return;
  }
  if (!same(id, s.clientId) || !same(secret, s.clientSecret)) {
    tokenError(res, 401, 'invalid_client', 'unknown client or wrong secret');
    return;
  }
  const token = `kpk_at_${randomBytes(24).toString('base64url')}`;
  const ttl = s.opts.tokenTtlSeconds;
  s.tokens.set(token, { clientId: id, expires: Date.now() + ttl * 1000 });
  res.statusCode = 200;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: ttl, scope: 'ncs' }));
}

/** RFC 8414 metadata of the token endpoint. */
export function metadata(origin: string) {
  return {
    issuer: origin,
    token_endpoint: `${origin}/oauth/token`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
  };
}

export interface Caller {
  token: string;
  clientId: string;
  tenant: string;
  expires: number;
}

/** Rate headers to put on an answer: the window counted, or the limit untouched for an uncounted refusal. */
export interface RateInfo {
  limit: number;
  remaining: number;
  retryAfter: number;
}

/** Counts the call in its window; the window key is token + tenant + environment. */
export function count(s: State, token: string, tenant: string): RateInfo & { exceeded: boolean } {
  const key = `${token}\u0000${tenant}\u0000${ENVIRONMENT}`;
  const now = Date.now();
  let w = s.windows.get(key);
  if (!w || now - w.start >= s.opts.windowMs) {
    w = { start: now, count: 0 };
    s.windows.set(key, w);
  }
  w.count++;
  const limit = s.opts.rateLimit;
  const retryAfter = Math.max(1, Math.ceil((w.start + s.opts.windowMs - now) / 1000));
  return { limit, remaining: Math.max(0, limit - w.count), retryAfter, exceeded: w.count > limit };
}

/** Authenticates: 401 without a valid token, 400 without a tenant, 403 for a tenant not released. */
export function authenticate(s: State, req: IncomingMessage): Caller {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  const t = m?.[1] ? s.tokens.get(m[1]) : undefined;
  if (!m?.[1] || !t || t.expires <= Date.now()) {
    throw new ApiError('unauthorized', 'a valid bearer token is required', undefined, 'request a new access token');
  }
  const tenant = req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant === '') {
    if (s.opts.missingTenant401) throw new ApiError('unauthorized', 'header x-service-tenant is required');
    throw bad('header x-service-tenant is required');
  }
  if (!s.released.has(tenant)) {
    throw new ApiError(
      'forbidden',
      'this access is not released for the tenant',
      undefined,
      'check the permissions of the access',
    );
  }
  return { token: m[1], clientId: t.clientId, tenant, expires: t.expires };
}
