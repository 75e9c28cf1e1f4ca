// OAuth client credentials (a Passport-like /oauth/token), the bearer guard, the tenant guard and the
// throttle middleware (fixed window per access, tenant and environment, like Laravel's RateLimiter).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { State } from './state.ts';
import { ApiError, type Ctx, readBody } from './support.ts';

const TOKEN_TTL_S = 3600;

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify({ error, error_description: description, message: description }));
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** POST /oauth/token: client_secret_basic or client_secret_post, form or JSON body. */
export async function tokenEndpoint(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = await readBody(req, 16_384).catch(() => '');
  let params: Record<string, string> = {};
  if ((req.headers['content-type'] ?? '').includes('json')) {
    try {
      params = JSON.parse(raw) as Record<string, string>;
    } catch {
      return oauthError(res, 400, 'invalid_request', 'The request body is not valid JSON.');
    }
  } else params = Object.fromEntries(new URLSearchParams(raw));
  let id = params.client_id;
  let secret = params.client_secret;
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic) {
    const [u, p] = Buffer.from(basic[1] ?? '', 'base64')
      .toString('utf8')
      .split(':');
    id = decodeURIComponent(u ?? '');
    secret = decodeURIComponent(p ?? '');
  }
  if (params.grant_type !== 'client_credentials') {
    return oauthError(res, 400, 'unsupported_grant_type', 'The authorization grant type is not supported.');
  }
  const client = id ? state.clients.get(id) : undefined;
  if (!client || !id || !secret || !same(client.secret, secret)) {
    return oauthError(res, 401, 'invalid_client', 'Client authentication failed.');
  }
  const token = randomBytes(30).toString('base64url');
  state.tokens.set(token, { clientId: id, expiresAt: Date.now() + TOKEN_TTL_S * 1000 });
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  res.end(JSON.stringify({ token_type: 'Bearer', expires_in: TOKEN_TTL_S, access_token: token, scope: '' }));
}

/** The auth:api guard: a valid bearer token, or 401 before anything is counted. */
export function authenticate(state: State, ctx: Ctx): void {
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '');
  const t = m ? state.tokens.get(m[1] ?? '') : undefined;
  if (!t || t.expiresAt <= Date.now()) {
    throw new ApiError('unauthorized', 'Unauthenticated.', {
      hint: 'Request a new access token with the client credentials flow and send it as a bearer token.',
    });
  }
  ctx.clientId = t.clientId;
}

/** throttle:api — counted per access (client), tenant and environment; every counted answer carries the headers. */
export function throttle(state: State, ctx: Ctx): void {
  const tenant = String(ctx.req.headers['x-service-tenant'] ?? '');
  const key = `${ctx.clientId}|${tenant}|sandbox`;
  const now = Date.now();
  let w = state.rate.get(key);
  if (!w || now - w.start >= state.opts.windowMs) {
    w = { start: now, count: 0 };
    state.rate.set(key, w);
  }
  const limit = state.opts.rateLimit;
  const resetAt = w.start + state.opts.windowMs;
  if (w.count >= limit) {
    ctx.rate = { limit, remaining: 0, resetAt };
    const e = new ApiError('rate_limited', 'Too Many Attempts.', {
      hint: 'Wait for the number of seconds in Retry-After, then retry with growing intervals.',
    });
    e.headers = {
      'Retry-After': Math.max(1, Math.ceil((resetAt - now) / 1000)),
      'X-RateLimit-Reset': Math.ceil(resetAt / 1000),
    };
    throw e;
  }
  w.count += 1;
  ctx.rate = { limit, remaining: limit - w.count, resetAt };
}

/** The tenant middleware: the header must name a tenant this client is released for. */
export function tenantGuard(state: State, ctx: Ctx): void {
  const raw = ctx.req.headers['x-service-tenant'];
  const tenant = Array.isArray(raw) ? raw[0] : raw;
  if (!tenant) {
    throw new ApiError('forbidden', 'This action is unauthorized.', {
      detail: 'x-service-tenant: the tenant header is required.',
      hint: 'Send the x-service-tenant header naming a tenant your access is released for.',
    });
  }
  const client = ctx.clientId ? state.clients.get(ctx.clientId) : undefined;
  if (!client?.tenants.includes(tenant)) {
    throw new ApiError('forbidden', 'This action is unauthorized.', {
      detail: 'The access is not released for this tenant.',
      hint: 'Check the permissions of the access.',
    });
  }
  ctx.tenant = tenant;
}
