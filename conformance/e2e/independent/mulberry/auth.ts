// OAuth client credentials (the only flow served), opaque tokens of 900 s, and the checks every
// authenticated call passes: bearer token, tenant header, tenant released, then the rate limit.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Ctx, readText } from './http.ts';
import { DEPLOYMENT_ENV, type State } from './state.ts';

export const TOKEN_PATH = '/oauth2/token';

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify({ error, error_description: description }));
}

const same = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** POST /oauth2/token: client_secret_basic or client_secret_post, grant_type=client_credentials. */
export async function tokenEndpoint(req: IncomingMessage, res: ServerResponse, state: State): Promise<void> {
  if (req.method !== 'POST') return oauthError(res, 405, 'invalid_request', 'POST only.');
  const form = new URLSearchParams(await readText(req));
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic?.[1]) {
    const [u, p] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
    id = decodeURIComponent(u ?? '');
    secret = decodeURIComponent(p ?? '');
  }
  if (form.get('grant_type') !== 'client_credentials')
    return oauthError(res, 400, 'unsupported_grant_type', 'Only client_credentials is supported.');
  const client = state.clients.get(id);
  if (!client || !same(client.secret, secret))
    return oauthError(res, 401, 'invalid_client', 'Unknown client or wrong secret.');
  const token = `mbt_${randomBytes(24).toString('base64url')}`;
  const ttl = state.opts.tokenTtlSeconds;
  state.tokens.set(token, { clientId: id, expiresAt: Date.now() + ttl * 1000 });
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: ttl }));
}

export function metadata(origin: string): Record<string, unknown> {
  return {
    issuer: origin,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
  };
}

/** The bearer token alone (the stream uses it to choose a tenant feed). */
export function bearer(ctx: Ctx): { clientId: string; expiresAt: number } {
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '');
  if (!m?.[1])
    throw new ApiError('unauthorized', 'Not signed in.', 'No bearer token.', `Request a token at ${TOKEN_PATH}.`);
  const t = ctx.state.tokens.get(m[1]);
  if (!t || t.expiresAt <= Date.now())
    throw new ApiError(
      'unauthorized',
      'Not signed in.',
      'Token unknown or expired.',
      `Request a new token at ${TOKEN_PATH}.`,
    );
  return t;
}

/** Token, tenant, release, rate limit: sets ctx.auth or throws. */
export function authenticate(ctx: Ctx): void {
  const t = bearer(ctx);
  const raw = ctx.req.headers['x-service-tenant'];
  const tenant = Array.isArray(raw) ? raw[0] : raw;
  if (!tenant)
    throw new ApiError(
      { 400: 'invalid_request', 401: 'unauthorized', 403: 'forbidden' }[ctx.state.opts.missingTenantStatus],
      'Tenant header missing.',
      'x-service-tenant is required.',
      'Send x-service-tenant: <tenant id>.',
    );
  const client = ctx.state.clients.get(t.clientId);
  if (!client?.tenants.includes(tenant))
    throw new ApiError('forbidden', 'This access may not act for this tenant.', 'Tenant not released for this access.');
  countCall(ctx, t.clientId, tenant);
  ctx.auth = { clientId: t.clientId, tenant, expiresAt: t.expiresAt };
}

// Rate limit: GCRA (generic cell rate algorithm), continuous refill, one theoretical arrival time per
// key; key = access (client) + tenant + environment, as the interface configures limits.
const tats = new WeakMap<object, Map<string, number>>();

/** Counts one call; sets ctx.rate for the headers; throws rate_limited past the limit. */
export function countCall(ctx: Ctx, clientId: string, tenant: string): void {
  const { rateLimit: limit, windowMs: window } = ctx.state.opts;
  let table = tats.get(ctx.state);
  if (!table) {
    table = new Map();
    tats.set(ctx.state, table);
  }
  const key = `${clientId}|${tenant}|${DEPLOYMENT_ENV}`;
  const interval = window / limit;
  const t = Date.now();
  const tat = Math.max(table.get(key) ?? t, t);
  const next = tat + interval;
  if (next - t > window) {
    // Wait until one cell has drained: whole seconds, rounded up.
    const waitMs = next - window - t;
    const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
    ctx.rate = { limit, remaining: 0, retryAfter };
    throw new ApiError(
      'rate_limited',
      'Too many calls.',
      `Limit ${limit} per ${window / 1000} s for this access, tenant and environment.`,
      `Retry after ${retryAfter} s, with growing intervals.`,
    );
  }
  table.set(key, next);
  ctx.rate = { limit, remaining: Math.max(0, Math.floor((window - (next - t)) / interval)) };
}
