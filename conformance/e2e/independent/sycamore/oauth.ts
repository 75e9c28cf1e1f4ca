// OAuth client credentials (POST /oauth/token, basic or post), bearer checks, tenant release and the fixed-window
// rate limit per token, tenant and environment. Order on an authenticated call: 401, tenant (400/403), 429.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Ctx, header, raw, readRaw } from './http.ts';
import type { State } from './state.ts';
import { sameSecret, secret } from './util.ts';

const TOKEN_TTL_S = 3600;
/** The environment this deployment is; the rate-limit key carries it. */
export const ENVIRONMENT = 'sandbox';

function oauthError(res: ServerResponse, status: number, error: string): void {
  res.setHeader('Cache-Control', 'no-store');
  raw(res, status, 'application/json; charset=utf-8', JSON.stringify({ error }));
}

export async function tokenEndpoint(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const form = new URLSearchParams(await readRaw(req).catch(() => ''));
  let id = form.get('client_id') ?? '';
  let pass = form.get('client_secret') ?? '';
  const auth = req.headers.authorization ?? '';
  if (/^basic /i.test(auth)) {
    const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    pass = decodeURIComponent(decoded.slice(i + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') return oauthError(res, 400, 'unsupported_grant_type');
  const client = state.clients.get(id);
  if (!client || !sameSecret(client.secret, pass)) return oauthError(res, 401, 'invalid_client');
  const token = secret('syc_at_', 32);
  state.tokens.set(token, { clientId: id, expiresAt: Date.now() + TOKEN_TTL_S * 1000 });
  res.setHeader('Cache-Control', 'no-store');
  raw(
    res,
    200,
    'application/json; charset=utf-8',
    JSON.stringify({
      access_token: token,
      token_type: 'Bearer',
      expires_in: TOKEN_TTL_S,
      scope: 'connections webhooks audit',
    }),
  );
}

/** RFC 8414 metadata, so a client may discover the token endpoint. */
export function metadata(base: string, res: ServerResponse): void {
  raw(
    res,
    200,
    'application/json; charset=utf-8',
    JSON.stringify({
      issuer: base,
      token_endpoint: `${base}/oauth/token`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    }),
  );
}

/** Limit headers on an answer nothing was counted for (no token, no tenant): the full window. */
function uncounted(state: State, ctx: Ctx): void {
  ctx.res.setHeader('X-RateLimit-Limit', String(state.opts.rateLimit));
  ctx.res.setHeader('X-RateLimit-Remaining', String(state.opts.rateLimit));
}

/** Authenticates the call, checks the tenant's release and counts it; throws the refusal. */
export function authenticate(state: State, ctx: Ctx): void {
  const auth = header(ctx, 'authorization') ?? '';
  const m = /^bearer\s+(\S+)$/i.exec(auth.trim());
  const tok = m?.[1] ? state.tokens.get(m[1]) : undefined;
  if (!m?.[1] || !tok || tok.expiresAt <= Date.now()) {
    uncounted(state, ctx);
    throw new ApiError('unauthorized', 'A valid bearer token is required.', 'Request a new access token.');
  }
  ctx.token = m[1];
  ctx.clientId = tok.clientId;
  const tenant = header(ctx, 'x-service-tenant')?.trim();
  if (!tenant) {
    uncounted(state, ctx);
    throw new ApiError('invalid_request', 'The header x-service-tenant is required.', 'Send the tenant identifier.');
  }
  count(state, ctx, `${m[1]}|${tenant}|${ENVIRONMENT}`);
  const client = state.clients.get(tok.clientId);
  if (state.opts.unknownTenantNotFound && !state.tenants.has(tenant)) {
    throw new ApiError('not_found', 'No such tenant.', 'Compare identifier and tenant header.');
  }
  if (!client?.tenants.includes(tenant)) {
    throw new ApiError(
      'forbidden',
      'This access is not released for the tenant.',
      'Check the permissions of the access.',
    );
  }
  ctx.tenant = tenant;
  if (state.opts.serviceVersionRequired && header(ctx, 'service-version') === undefined) {
    throw new ApiError(
      'invalid_request',
      'The header Service-Version is required.',
      'Send Service-Version: 2026-07-01.',
    );
  }
}

function count(state: State, ctx: Ctx, key: string): void {
  const now = Date.now();
  const size = state.opts.windowMs;
  const start = now - (now % size);
  let w = state.windows.get(key);
  if (!w || w.start !== start) {
    w = { start, count: 0 };
    state.windows.set(key, w);
  }
  const limit = state.opts.rateLimit;
  ctx.res.setHeader('X-RateLimit-Limit', String(limit));
  if (w.count >= limit) {
    ctx.res.setHeader('X-RateLimit-Remaining', '0');
    ctx.res.setHeader('X-RateLimit-Reset', String(Math.ceil((start + size) / 1000)));
    ctx.res.setHeader('Retry-After', String(Math.max(1, Math.ceil((start + size - now) / 1000))));
    throw new ApiError('rate_limited', 'The rate limit of this access is used up.', 'Wait for Retry-After seconds.');
  }
  w.count++;
  ctx.res.setHeader('X-RateLimit-Remaining', String(limit - w.count));
  ctx.res.setHeader('X-RateLimit-Reset', String(Math.ceil((start + size) / 1000)));
}
