// Apigee-style OAuth client credentials (opaque tokens), tenant release and a SpikeArrest-like quota.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { State } from './state.ts';
import { ApiError, type Ctx, readBody } from './util.ts';

export const TOKEN_PATH = '/oauth/client_credential/accesstoken';

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  const h: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (status === 401) h['www-authenticate'] = 'Basic realm="quince"';
  res.writeHead(status, h);
  res.end(JSON.stringify({ error, error_description: description }));
}

/** POST token endpoint: grant_type=client_credentials, client_secret_basic or client_secret_post. */
export async function tokenEndpoint(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return oauthError(res, 405, 'invalid_request', 'use POST');
  const form = new URLSearchParams(await readBody(req, 65_536));
  const url = new URL(req.url ?? '/', 'http://x');
  const grant = form.get('grant_type') ?? url.searchParams.get('grant_type');
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic?.[1]) {
    const text = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = text.indexOf(':');
    id = decodeURIComponent(text.slice(0, i));
    secret = decodeURIComponent(text.slice(i + 1));
  }
  const client = state.clients.get(id);
  if (!client || !same(client.secret, secret))
    return oauthError(res, 401, 'invalid_client', 'client authentication failed');
  if (grant !== 'client_credentials') return oauthError(res, 400, 'unsupported_grant_type', 'only client_credentials');
  const token = randomBytes(24).toString('base64url');
  const ttl = state.opts.tokenTtlSeconds;
  state.tokens.set(token, { clientId: id, expires: Date.now() + ttl * 1000 });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
  res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: ttl, scope: 'connections' }));
}

export function metadata(origin: string): Record<string, unknown> {
  return {
    issuer: origin,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    response_types_supported: [],
  };
}

/** Bearer token, then tenant header (400 when missing), then release of the tenant (403). */
export function authenticate(state: State, ctx: Ctx): { clientId: string; tenant: string } {
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '');
  const t = m?.[1] ? state.tokens.get(m[1]) : undefined;
  if (!t || t.expires <= Date.now()) {
    throw new ApiError(
      'unauthorized',
      'The access token is missing, unknown or expired.',
      'ACCESS_TOKEN_INVALID',
      'Request a new access token.',
    );
  }
  const tenant = ctx.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant.trim() === '') {
    throw new ApiError(
      'invalid_request',
      'Header x-service-tenant is required.',
      'TENANT_HEADER_MISSING',
      'Send x-service-tenant.',
    );
  }
  const client = state.clients.get(t.clientId);
  if (!client?.tenants.includes(tenant)) {
    throw new ApiError(
      'forbidden',
      'This access is not released for the tenant.',
      'TENANT_NOT_RELEASED',
      'Check the permissions of the access.',
    );
  }
  return { clientId: t.clientId, tenant };
}

/** A fixed-window count per client and tenant; counted answers carry X-RateLimit-*; refusals Retry-After. */
export function rateLimit(state: State, ctx: Ctx, key: string): void {
  const { rateLimit: limit, windowMs } = state.opts;
  const now = Date.now();
  const hits = (state.rate.get(key) ?? []).filter((t) => t > now - windowMs);
  state.rate.set(key, hits);
  ctx.headers['x-ratelimit-limit'] = String(limit);
  const interval = windowMs / limit;
  const last = hits[hits.length - 1];
  const spike = state.opts.smoothing && last !== undefined && now - last < interval;
  if (hits.length >= limit || spike) {
    const oldest = hits[0] ?? now;
    const until = spike && hits.length < limit ? (last ?? now) + interval : oldest + windowMs;
    const wait = Math.max(1, Math.ceil((until - now) / 1000));
    ctx.headers['x-ratelimit-remaining'] = '0';
    ctx.headers['retry-after'] = String(wait);
    throw new ApiError(
      'rate_limited',
      'Too many calls in a short time.',
      'RATE_LIMIT_EXCEEDED',
      `Retry after ${wait} s.`,
    );
  }
  hits.push(now);
  ctx.headers['x-ratelimit-remaining'] = String(limit - hits.length);
}
