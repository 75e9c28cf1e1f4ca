// The gateway's front: OAuth token server (its own origin, RFC 8414 metadata), bearer check, the
// rate limiter (fixed windows, like Kong's rate-limiting plugin), Service-Version and the tenant.

import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Ctx } from './http-kit.ts';
import { ApiError, KNOWN_VERSIONS, readBody } from './http-kit.ts';
import { opaqueHex } from './ids.ts';
import type { State } from './store.ts';

export const TOKEN_PATH = '/as/token.oauth2';
export const METADATA_PATH = '/.well-known/oauth-authorization-server';
const TOKEN_LIFETIME_S = 300;

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthAnswer(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    Pragma: 'no-cache',
    ...extra,
  });
  res.end(JSON.stringify(body));
}

export function authMethods(state: State): string[] {
  return state.options.secretPostOnly ? ['client_secret_post'] : ['client_secret_basic', 'client_secret_post'];
}

/** The authorization server ({auth_url}): token endpoint and its metadata. */
export async function handleTokenServer(
  state: State,
  origin: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', origin);
  if (req.method === 'GET' && url.pathname === METADATA_PATH) {
    oauthAnswer(res, 200, {
      issuer: origin,
      token_endpoint: `${origin}${TOKEN_PATH}`,
      token_endpoint_auth_methods_supported: authMethods(state),
      grant_types_supported: ['client_credentials'],
      response_types_supported: [],
      scopes_supported: ['connections', 'catalog', 'webhooks', 'audit'],
    });
    return;
  }
  if (req.method !== 'POST' || url.pathname !== TOKEN_PATH) {
    oauthAnswer(res, 404, { error: 'not_found' });
    return;
  }
  const form = new URLSearchParams(await readBody(req).catch(() => ''));
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
  if (basic) {
    if (state.options.secretPostOnly) {
      oauthAnswer(res, 401, { error: 'invalid_client', error_description: 'use client_secret_post' });
      return;
    }
    const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
    secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    oauthAnswer(res, 400, { error: 'unsupported_grant_type' });
    return;
  }
  if (!same(id, state.clientId) || !same(secret, state.clientSecret)) {
    oauthAnswer(res, 401, { error: 'invalid_client' }, { 'WWW-Authenticate': 'Basic realm="hazel"' });
    return;
  }
  const token = opaqueHex();
  state.tokens.set(token, { clientId: id, expiresAt: Date.now() + TOKEN_LIFETIME_S * 1000 });
  oauthAnswer(res, 200, {
    access_token: token,
    token_type: 'Bearer',
    expires_in: TOKEN_LIFETIME_S,
    scope: form.get('scope') ?? 'connections catalog webhooks audit',
  });
}

function countCall(state: State, ctx: Ctx, clientId: string, tenant: string, anonymous = false): void {
  const { rateLimit, windowMs, separateAltWindow } = state.options;
  // per access, tenant and environment (this deployment is the sandbox); one window for both addresses;
  // a caller without a valid token falls back to its address (Kong's limit_by fallback)
  const key = anonymous ? `ip|${clientId}` : `${clientId}|${tenant}|sandbox${separateAltWindow ? `|${ctx.base}` : ''}`;
  const now = Date.now();
  const windowStart = Math.floor(now / windowMs) * windowMs;
  let w = state.rate.get(key);
  if (!w || w.windowStart !== windowStart) {
    w = { windowStart, count: 0 };
    state.rate.set(key, w);
  }
  const resetSeconds = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
  if (w.count >= rateLimit) {
    ctx.rate = { limit: rateLimit, remaining: 0, resetSeconds };
    throw new ApiError('rate_limited', 'Too many calls in this window.', {
      hint: `Wait ${resetSeconds} s (Retry-After), then retry with growing intervals.`,
      headers: { 'Retry-After': String(resetSeconds) },
    });
  }
  w.count++;
  ctx.rate = { limit: rateLimit, remaining: rateLimit - w.count, resetSeconds };
}

/** Service-Version: optional (unless required by the switch); an unknown value is refused. */
export function applyVersion(state: State, ctx: Ctx, authenticated: boolean): void {
  const raw = ctx.req.headers['service-version'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined) {
    const required = state.options.versionRequired;
    if (required === 'all' || (authenticated && required === 'authenticated')) {
      throw new ApiError('invalid_request', 'The header Service-Version is required.', {
        hint: `Send one of: ${KNOWN_VERSIONS.join(', ')}.`,
      });
    }
    return;
  }
  const v = value.trim();
  if (!KNOWN_VERSIONS.includes(v)) {
    throw new ApiError('invalid_request', 'Unknown Service-Version.', {
      hint: `Known versions: ${KNOWN_VERSIONS.join(', ')}.`,
    });
  }
  ctx.version = v;
}

/** Everything an authenticated route needs before its handler runs. */
export function gate(state: State, ctx: Ctx): void {
  const match = /^Bearer\s+([^\s]+)\s*$/i.exec(String(ctx.req.headers.authorization ?? ''));
  const token = match?.[1] ?? '';
  const grant = state.tokens.get(token);
  if (!grant || grant.expiresAt <= Date.now()) {
    if (grant) state.tokens.delete(token);
    if (state.options.anonymousRate) countCall(state, ctx, ctx.req.socket.remoteAddress ?? '-', '-', true);
    throw new ApiError('unauthorized', 'A valid bearer token is required.', {
      hint: 'Request a new access token (client credentials) and check the environment.',
      headers: { 'WWW-Authenticate': 'Bearer realm="hazel", error="invalid_token"' },
    });
  }
  const rawTenant = ctx.req.headers['x-service-tenant'];
  const tenant = (Array.isArray(rawTenant) ? rawTenant[0] : rawTenant)?.trim() ?? '';
  countCall(state, ctx, grant.clientId, tenant || '-');
  ctx.clientId = grant.clientId;
  applyVersion(state, ctx, true);
  if (!tenant) {
    throw new ApiError('invalid_request', 'The header x-service-tenant is missing.', {
      hint: 'Name the tenant the call applies to.',
    });
  }
  if (!state.released.has(tenant)) {
    throw new ApiError('forbidden', 'This access is not released for the tenant.', {
      hint: 'Check the permissions of the access.',
    });
  }
  ctx.tenant = tenant;
}
