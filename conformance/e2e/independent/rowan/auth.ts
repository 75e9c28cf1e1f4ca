// The OAuth token endpoint (django-oauth-toolkit style, /o/token/) and the bearer/tenant/throttle checks
// DRF runs before a view: authentication, then permission (the tenant), then throttling.

import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Ctx } from './http-util.ts';
import type { Caller } from './routes.ts';
import type { RowanState } from './state.ts';

export interface Access {
  clientId: string;
  clientSecret: string;
  /** Tenants the client is released for; `known` also lists those that exist without release. */
  released: string[];
  known: string[];
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthError(res: ServerResponse, status: number, error: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify({ error }));
}

export function tokenEndpoint(
  req: IncomingMessage,
  res: ServerResponse,
  raw: string,
  state: RowanState,
  access: Access,
): void {
  const form = new URLSearchParams(raw);
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    oauthError(res, 400, 'unsupported_grant_type');
    return;
  }
  if (!same(id, access.clientId) || !same(secret, access.clientSecret)) {
    oauthError(res, 401, 'invalid_client');
    return;
  }
  const { token, expiresIn } = state.issueToken(id);
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope: 'read write' }));
}

/** The bearer token's record, or undefined (expired and unknown tokens alike). */
export function tokenOf(
  req: IncomingMessage,
  state: RowanState,
): { token: string; clientId: string; expiresAt: number } | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''));
  const token = m?.[1];
  if (!token) return undefined;
  const t = state.tokens.get(token);
  if (!t || t.expiresAt <= Date.now()) return undefined;
  return { token, ...t };
}

export function authenticate(ctx: Ctx, state: RowanState, access: Access): Caller {
  const t = tokenOf(ctx.req, state);
  if (!t) throw new ApiError('unauthorized', 'Authentication credentials were not provided or have expired.');
  const raw = ctx.req.headers['x-service-tenant'];
  const tenant = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
  if (!tenant) throw new ApiError('invalid_request', 'The x-service-tenant header is required.');
  if (!access.released.includes(tenant)) throw new ApiError('forbidden', 'This access is not released for the tenant.');
  const r = state.take(t.token);
  ctx.headers['X-RateLimit-Limit'] = String(r.limit);
  ctx.headers['X-RateLimit-Remaining'] = String(r.remaining);
  if (!r.allowed) {
    ctx.headers['Retry-After'] = String(r.retryAfter);
    throw new ApiError('rate_limited', `Request was throttled. Expected available in ${r.retryAfter} seconds.`);
  }
  return { tenant, clientId: t.clientId, tokenExpiresAt: t.expiresAt };
}
