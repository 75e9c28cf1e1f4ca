// IdentityServer-like token endpoint (client_secret_basic only, opaque 300 s tokens) and the
// per-call pipeline: bearer token, fixed-window rate limit per client id, tenant header.
import { randomBytes } from 'node:crypto';
import type { Ctx } from './http.ts';
import { baseUrlOf, HttpError, sendJson } from './http.ts';
import type { Store } from './state.ts';
import { knownTenant } from './state.ts';

export const TOKEN_PATH = '/connect/token';
export const TOKEN_LIFETIME_S = 300; // the default; ELM_TOKEN_LIFETIME_S changes it

export type AuthOptions = {
  clientId: string;
  clientSecret: string;
  rateLimit: number;
  windowMs: number;
  tokenLifetimeS: number;
};
type Token = { clientId: string; expiresAt: number };
type Window = { start: number; count: number };

export type Auth = {
  options: AuthOptions;
  tokens: Map<string, Token>;
  windows: Map<string, Window>;
};

export function createAuth(options: AuthOptions): Auth {
  return { options, tokens: new Map(), windows: new Map() };
}

function oauthError(ctx: Ctx, status: number, error: string, description: string): void {
  ctx.headers['Cache-Control'] = 'no-store';
  sendJson(ctx, status, { error, error_description: description });
}

export function discovery(ctx: Ctx): void {
  const issuer = baseUrlOf(ctx);
  sendJson(ctx, 200, {
    issuer,
    token_endpoint: `${issuer}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic'],
    scopes_supported: ['ncs.public'],
    response_types_supported: ['token'],
  });
}

export function tokenEndpoint(ctx: Ctx, auth: Auth, form: URLSearchParams): void {
  if (form.has('client_secret')) {
    oauthError(ctx, 401, 'invalid_client', 'Only client_secret_basic is supported.');
    return;
  }
  const header = String(ctx.req.headers.authorization ?? '');
  const match = /^Basic\s+(\S+)$/i.exec(header);
  if (!match) {
    ctx.headers['WWW-Authenticate'] = 'Basic realm="elm"';
    oauthError(ctx, 401, 'invalid_client', 'Client authentication failed.');
    return;
  }
  const decoded = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const id = decodeURIComponent(decoded.slice(0, colon));
  const secret = decodeURIComponent(decoded.slice(colon + 1));
  if (colon < 0 || id !== auth.options.clientId || secret !== auth.options.clientSecret) {
    oauthError(ctx, 401, 'invalid_client', 'Client authentication failed.');
    return;
  }
  if (form.get('grant_type') !== 'client_credentials') {
    oauthError(ctx, 400, 'unsupported_grant_type', 'Only client_credentials is supported.');
    return;
  }
  const token = randomBytes(32).toString('base64url');
  auth.tokens.set(token, { clientId: id, expiresAt: Date.now() + auth.options.tokenLifetimeS * 1000 });
  ctx.headers['Cache-Control'] = 'no-store';
  sendJson(ctx, 200, {
    access_token: token,
    token_type: 'Bearer',
    expires_in: auth.options.tokenLifetimeS,
    scope: form.get('scope') || 'ncs.public',
  });
}

// Fixed window per client id; the headers go on every answer after the token was accepted.
function countCall(ctx: Ctx, auth: Auth, clientId: string): void {
  const now = Date.now();
  let window = auth.windows.get(clientId);
  if (!window || now - window.start >= auth.options.windowMs) {
    window = { start: now, count: 0 };
    auth.windows.set(clientId, window);
  }
  window.count += 1;
  const limit = auth.options.rateLimit;
  const resetS = Math.max(1, Math.ceil((window.start + auth.options.windowMs - now) / 1000));
  ctx.headers['X-RateLimit-Limit'] = String(limit);
  ctx.headers['X-RateLimit-Remaining'] = String(Math.max(0, limit - window.count));
  ctx.headers['X-RateLimit-Reset'] = String(Math.ceil((window.start + auth.options.windowMs) / 1000));
  if (window.count > limit) {
    ctx.headers['Retry-After'] = String(resetS);
    throw new HttpError('rate_limited', 'Too many requests in the current window.', `Retry after ${resetS} seconds.`);
  }
}

export function countIfAuthenticated(ctx: Ctx, auth: Auth): void {
  const match = /^Bearer\s+(\S+)$/i.exec(String(ctx.req.headers.authorization ?? ''));
  const token = match ? auth.tokens.get(match[1] ?? '') : undefined;
  if (token && token.expiresAt > Date.now()) countCall(ctx, auth, token.clientId);
}

export function authenticate(ctx: Ctx, auth: Auth, store: Store): void {
  const header = String(ctx.req.headers.authorization ?? '');
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  const token = match ? auth.tokens.get(match[1] ?? '') : undefined;
  if (!token || token.expiresAt <= Date.now()) {
    ctx.headers['WWW-Authenticate'] = 'Bearer error="invalid_token"';
    throw new HttpError('unauthorized', 'A valid bearer token is required.', 'Request a new access token.');
  }
  ctx.clientId = token.clientId;
  countCall(ctx, auth, token.clientId);
  const tenant = ctx.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant.length === 0) {
    throw new HttpError('invalid_request', "The header 'x-service-tenant' is required.");
  }
  if (!knownTenant(tenant) || !store.released.has(tenant)) {
    throw new HttpError('forbidden', 'This access is not released for the tenant.');
  }
  ctx.tenant = tenant;
}
