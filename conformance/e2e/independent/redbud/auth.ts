// The OAuth token endpoint (client credentials, basic or post authentication, RFC 6749 §5 errors) and the
// request guards the handlers take: `BearerToken` first, then `Tenant` (a Rocket guard order: 401 before 400/403).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError, type Ctx, readRaw, send } from './http.ts';
import type { Store } from './state.ts';

export const CLIENT_ID = 'redbud-ci';
export const CLIENT_SECRET = 'rb_sk_test_6f1c2a9e4b7d';
export const TOKEN_PATH = '/oauth2/token';

/** `subtle::ConstantTimeEq` in the Rust original. */
function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthError(ctx: Ctx, status: number, error: string, description: string): void {
  if (status === 401) ctx.headers['www-authenticate'] = 'Basic realm="redbud"';
  ctx.headers['cache-control'] = 'no-store';
  send(ctx, status, { error, error_description: description });
}

export async function tokenEndpoint(ctx: Ctx, store: Store): Promise<void> {
  const form = new URLSearchParams(await readRaw(ctx.req));
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic (.+)$/i.exec(ctx.req.headers.authorization ?? '');
  if (basic?.[1] && store.options.tokenAuth === 'post') {
    return oauthError(ctx, 401, 'invalid_client', 'use client_secret_post');
  }
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return oauthError(ctx, 400, 'unsupported_grant_type', 'only client_credentials is supported');
  }
  if (!same(id, CLIENT_ID) || !same(secret, CLIENT_SECRET)) {
    return oauthError(ctx, 401, 'invalid_client', 'client authentication failed');
  }
  const token = `rbat_${randomBytes(24).toString('base64url')}`;
  const ttl = store.options.tokenTtlSec;
  store.tokens.set(token, { clientId: id, expiresAt: Date.now() + ttl * 1000 });
  ctx.headers['cache-control'] = 'no-store';
  send(ctx, 200, { access_token: token, token_type: 'Bearer', expires_in: ttl, scope: 'connections webhooks audit' });
}

/** The `BearerToken` guard: a live token or 401. */
export function bearer(ctx: Ctx, store: Store): string {
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '');
  const token = m?.[1] ? store.tokens.get(m[1]) : undefined;
  if (!token) throw new ApiError('unauthorized', 'A valid bearer token is required');
  if (token.expiresAt <= Date.now()) throw new ApiError('unauthorized', 'The access token has expired');
  return token.clientId;
}

/** The `Tenant` guard: the header present (400), a known tenant released to this client (403). */
export function tenant(ctx: Ctx, store: Store): string {
  const t = ctx.req.headers['x-service-tenant'];
  if (typeof t !== 'string' || t.trim() === '') {
    throw new ApiError('invalid_request', 'Header x-service-tenant is required');
  }
  if (!store.tenants.get(t)?.released) throw new ApiError('forbidden', 'This tenant is not released to the client');
  return t;
}
