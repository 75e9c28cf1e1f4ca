// The auth and tenancy interceptors plus the token endpoint: an OAuth 2.1 client-credentials grant at
// /oauth2/token (client_secret_basic or client_secret_post), opaque bearer tokens kept in the store.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError, type Ctx } from './http.ts';
import type { Store } from './state.ts';

export const TOKEN_PATH = '/oauth2/token';

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

function tokenError(ctx: Ctx, status: number, error: string, description: string) {
  const text = JSON.stringify({ error, error_description: description });
  ctx.res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  ctx.res.end(text);
}

/** RFC 6749 answers (not the service envelope): the authorization server is a separate component. */
export function tokenEndpoint(store: Store, ctx: Ctx) {
  const form = new URLSearchParams(ctx.raw ?? '');
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(ctx.req.headers.authorization ?? '');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return tokenError(ctx, 400, 'unsupported_grant_type', 'Only client_credentials is offered');
  }
  if (!same(id, store.clientId) || !same(secret, store.clientSecret)) {
    return tokenError(ctx, 401, 'invalid_client', 'Client authentication failed');
  }
  const token = randomBytes(24).toString('base64url');
  store.tokens.set(token, { clientId: id, expires: Date.now() + store.opts.tokenTtlSec * 1000 });
  const text = JSON.stringify({
    access_token: token,
    token_type: 'Bearer',
    expires_in: store.opts.tokenTtlSec,
    scope: 'connections catalog webhooks audit',
  });
  ctx.res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  ctx.res.end(text);
}

/** Bearer check, then tenancy: a missing header is an incomplete request, a tenant not released is forbidden. */
export function authenticate(store: Store, ctx: Ctx) {
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '');
  const entry = m?.[1] ? store.tokens.get(m[1]) : undefined;
  if (!entry || entry.expires <= Date.now()) {
    throw new ApiError(
      401,
      'unauthorized',
      'A valid bearer token is required',
      undefined,
      'Request a new access token',
    );
  }
  ctx.clientId = entry.clientId;
  const tenant = ctx.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant.trim() === '') {
    throw new ApiError(
      400,
      'invalid_request',
      'Header x-service-tenant is required',
      'x-service-tenant: missing required key',
    );
  }
  if (!store.released.has(tenant)) {
    throw new ApiError(
      403,
      'forbidden',
      'This access may not act for the tenant',
      undefined,
      'Check the permissions of the access',
    );
  }
  ctx.tenant = tenant;
}
