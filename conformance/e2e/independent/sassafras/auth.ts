// OAuth client credentials (a Duende IdentityServer-like /connect/token) and the bearer check of the API.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Caller, type Ctx, readBody } from './http-kit.ts';
import { type Store, TENANTS } from './state.ts';

export const CLIENT_ID = 'sassafras-conformance';
export const CLIENT_SECRET = `sf_${randomBytes(24).toString('base64url')}`;
export const TOKEN_PATH = '/connect/token';

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  const text = JSON.stringify({ error, error_description: description });
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(text);
}

/** POST /connect/token: client_secret_basic or client_secret_post, grant client_credentials only. */
export async function tokenEndpoint(store: Store, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return oauthError(res, 405, 'invalid_request', 'Use POST.');
  const form = new URLSearchParams(await readBody(req).catch(() => ''));
  let id = form.get('client_id') ?? undefined;
  let secret = form.get('client_secret') ?? undefined;
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return oauthError(res, 400, 'unsupported_grant_type', 'Only client_credentials is supported.');
  }
  if (id !== CLIENT_ID || secret !== CLIENT_SECRET)
    return oauthError(res, 401, 'invalid_client', 'Unknown client or wrong secret.');
  const token = randomBytes(32).toString('base64url');
  const lifetime = store.options.tokenLifetimeSec;
  store.tokens.set(token, { clientId: id, expiresAt: Date.now() + lifetime * 1000 });
  const text = JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: lifetime, scope: 'ncs.api' });
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(text);
}

/** RFC 8414 / OpenID discovery document naming the token endpoint. */
export function metadata(origin: string): Record<string, unknown> {
  return {
    issuer: origin,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: ['ncs.api'],
  };
}

/** Validates the bearer token (401) only; the tenant is checked after the call is counted. */
export function authenticate(store: Store, ctx: Ctx): Caller {
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '');
  const token = m?.[1];
  if (!token) {
    ctx.headers['WWW-Authenticate'] = 'Bearer';
    throw new ApiError(
      'unauthorized',
      'The call is not signed in.',
      'No bearer token was sent.',
      'Request an access token with client credentials.',
    );
  }
  const t = store.tokens.get(token);
  if (!t || t.expiresAt <= Date.now()) {
    if (t) store.tokens.delete(token);
    ctx.headers['WWW-Authenticate'] = 'Bearer error="invalid_token"';
    throw new ApiError(
      'unauthorized',
      'The call is not signed in.',
      'The access token is unknown or expired.',
      'Request a new access token.',
    );
  }
  const raw = ctx.req.headers['x-service-tenant'];
  const tenant = Array.isArray(raw) ? (raw[0] ?? '') : (raw ?? '');
  return { clientId: t.clientId, tenant: tenant.trim(), token };
}

/** The tenant header: missing is 400, a tenant this access is not released for (or unknown) is 403. */
export function checkTenant(caller: Caller): void {
  if (caller.tenant === '') {
    throw new ApiError(
      'invalid_request',
      "The header 'x-service-tenant' is required.",
      undefined,
      'Send the tenant identifier in x-service-tenant.',
    );
  }
  if (!TENANTS.released.includes(caller.tenant)) {
    throw new ApiError(
      'forbidden',
      'This access may not act for the tenant.',
      undefined,
      'Check the permissions of the access.',
    );
  }
}
