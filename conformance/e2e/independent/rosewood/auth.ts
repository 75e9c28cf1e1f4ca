// OAuth client credentials the way a Vapor team wires JWTKit: an HS256 JWT with `sub`, `scope`, `env` and
// `exp`, checked by a bearer authenticator, then a guard for the tenant header (released tenants only).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Abort, type Ctx, jsonBody, type Rec } from './http.ts';
import { CLIENT_ID, CLIENT_SECRET, RELEASED, type Store } from './state.ts';

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');
export const TOKEN_PATH = '/oauth2/token';
const SCOPE = 'connections:read connections:write webhooks:write audit:read';

function signJwt(store: Store, claims: Rec): string {
  const head = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  return `${head}.${createHmac('sha256', store.jwtSecret).update(head).digest('base64url')}`;
}

function verifyJwt(store: Store, token: string): Rec | null {
  const [h, p, s] = token.split('.');
  if (!h || !p || !s) return null;
  const expected = Buffer.from(createHmac('sha256', store.jwtSecret).update(`${h}.${p}`).digest('base64url'));
  const given = Buffer.from(s);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Rec;
    return typeof claims.exp === 'number' && claims.exp * 1000 > Date.now() ? claims : null;
  } catch {
    return null;
  }
}

function oauthError(ctx: Ctx, status: number, error: string, description: string): void {
  const text = JSON.stringify({ error, error_description: description });
  const headers: Rec = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="rosewood"';
  ctx.res.writeHead(status, headers);
  ctx.res.end(text);
}

/** RFC 6749 §4.4: client_secret_basic or client_secret_post, form or JSON body. */
export function tokenEndpoint(ctx: Ctx, store: Store): void {
  const type = String(ctx.req.headers['content-type'] ?? '');
  let form: Rec;
  try {
    form = type.includes('json') ? jsonBody(ctx) : Object.fromEntries(new URLSearchParams(ctx.rawBody));
  } catch {
    oauthError(ctx, 400, 'invalid_request', 'unreadable body');
    return;
  }
  let id = form.client_id as string | undefined;
  let secret = form.client_secret as string | undefined;
  const basic = /^Basic\s+(.+)$/i.exec(String(ctx.req.headers.authorization ?? ''));
  if (basic?.[1]) {
    const [u, s] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
    id = decodeURIComponent(u ?? '');
    secret = decodeURIComponent(s ?? '');
  }
  if (form.grant_type !== 'client_credentials') {
    oauthError(ctx, 400, 'unsupported_grant_type', 'only client_credentials is offered');
    return;
  }
  if (id !== CLIENT_ID || secret !== CLIENT_SECRET) {
    oauthError(ctx, 401, 'invalid_client', 'unknown client');
    return;
  }
  const now = Math.floor(Date.now() / 1000);
  const ttl = store.options.tokenTtlSeconds;
  const token = signJwt(store, { sub: id, scope: SCOPE, env: 'sandbox', iat: now, exp: now + ttl, jti: now });
  const text = JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: ttl, scope: SCOPE });
  ctx.res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  ctx.res.end(text);
}

/** The bearer token's client, or null (no header, bad signature, expired, other environment). */
export function bearerClient(ctx: Ctx, store: Store): string | null {
  const m = /^Bearer\s+(\S+)$/i.exec(String(ctx.req.headers.authorization ?? ''));
  const claims = m?.[1] ? verifyJwt(store, m[1]) : null;
  return claims && claims.env === 'sandbox' && typeof claims.sub === 'string' ? claims.sub : null;
}

/** `User.guardMiddleware()` then the tenant guard; sets ctx.clientId and ctx.tenant. */
export function authenticate(ctx: Ctx, store: Store): void {
  const client = bearerClient(ctx, store);
  if (!client) {
    throw new Abort(401, 'Missing or invalid bearer token.', {
      hint: `Request a new access token at ${TOKEN_PATH} and check the environment.`,
      headers: { 'www-authenticate': 'Bearer realm="rosewood"' },
    });
  }
  ctx.clientId = client;
  const tenant = ctx.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant.trim() === '') {
    throw new Abort(400, 'Header x-service-tenant is required.', { hint: 'Send the tenant identifier.' });
  }
  if (!RELEASED.includes(tenant)) {
    // Unknown and unreleased tenants answer alike, so the answer does not reveal which tenants exist.
    throw new Abort(403, 'Tenant is not released for this client.', { hint: 'Check the permissions of the access.' });
  }
  ctx.tenant = tenant;
}
