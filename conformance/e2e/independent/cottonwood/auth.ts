// A small OAuth 2.1 authorization server of the team's own for client credentials (better-auth's
// oauth-provider paths), and the guard every authenticated route runs: bearer, then tenant release.
import { timingSafeEqual } from 'node:crypto';
import { type Ctx, HttpError, header, nanoid } from './http.ts';
import { CLIENT_ID, CLIENT_SECRET, type Store, TENANTS } from './state.ts';

export const TOKEN_PATH = '/api/auth/oauth2/token';
export const METADATA_PATH = '/.well-known/oauth-authorization-server';

/** Tenants the client's grant releases; the third tenant exists but is not released (403). */
const RELEASED = new Set([TENANTS.main, TENANTS.other]);
const KNOWN = new Set([TENANTS.main, TENANTS.other, TENANTS.foreign]);

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthError(ctx: Ctx, status: number, error: string, description: string) {
  ctx.res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  ctx.res.end(JSON.stringify({ error, error_description: description }));
}

/** RFC 6749 §4.4: form body, client_secret_basic or client_secret_post; errors in OAuth's own shape. */
export async function tokenEndpoint(ctx: Ctx, store: Store) {
  const chunks: Buffer[] = [];
  for await (const c of ctx.req) chunks.push(c as Buffer);
  const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = header(ctx, 'authorization');
  if (basic?.toLowerCase().startsWith('basic ')) {
    if (store.options.tokenAuth === 'post') {
      return oauthError(ctx, 401, 'invalid_client', 'Use client_secret_post');
    }
    const decoded = Buffer.from(basic.slice(6).trim(), 'base64').toString('utf8');
    const at = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, at));
    secret = decodeURIComponent(decoded.slice(at + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return oauthError(ctx, 400, 'unsupported_grant_type', 'Only client_credentials is offered');
  }
  if (!same(id, CLIENT_ID) || !same(secret, CLIENT_SECRET)) {
    return oauthError(ctx, 401, 'invalid_client', 'Unknown client or wrong secret');
  }
  const token = `cwat_${nanoid(32)}`;
  const ttl = store.options.tokenTtlSeconds;
  store.tokens.set(token, { clientId: id, expiresAt: Date.now() + ttl * 1000 });
  ctx.res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  ctx.res.end(
    JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: ttl, scope: 'ncs:read ncs:write' }),
  );
}

/** RFC 8414 metadata at the origin, so a client finds the token endpoint without being told. */
export function metadata(ctx: Ctx, store: Store, origin: string) {
  ctx.res.writeHead(200, { 'content-type': 'application/json' });
  ctx.res.end(
    JSON.stringify({
      issuer: origin,
      token_endpoint: `${origin}${TOKEN_PATH}`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported:
        store.options.tokenAuth === 'post' ? ['client_secret_post'] : ['client_secret_basic', 'client_secret_post'],
      scopes_supported: ['ncs:read', 'ncs:write'],
    }),
  );
}

/** The bearer alone (no tenant needed): GET /info answers who is calling. */
export function requireToken(ctx: Ctx, store: Store): string {
  const auth = header(ctx, 'authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(auth);
  const grant = match?.[1] ? store.tokens.get(match[1]) : undefined;
  if (!grant || grant.expiresAt <= Date.now()) {
    if (grant && match?.[1]) store.tokens.delete(match[1]);
    throw new HttpError(
      401,
      'unauthorized',
      'Missing, unknown or expired access token',
      undefined,
      'Request a new access token',
    );
  }
  ctx.clientId = grant.clientId;
  return grant.clientId;
}

/** Bearer, then the tenant header: a tenant not released to this client is 403, never 404. */
export function requireTenant(ctx: Ctx, store: Store): string {
  requireToken(ctx, store);
  const tenant = header(ctx, 'x-service-tenant');
  if (!tenant) {
    throw new HttpError(400, 'invalid_request', 'Header x-service-tenant is required', undefined, 'Name the tenant');
  }
  if (!KNOWN.has(tenant) || !RELEASED.has(tenant)) {
    throw new HttpError(403, 'forbidden', 'This access is not released for the tenant');
  }
  ctx.tenant = tenant;
  return tenant;
}
