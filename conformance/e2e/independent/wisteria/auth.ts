// OAuth client credentials (Spring Authorization Server paths), bearer checks, tenant release and the
// fixed-window rate limit per token (Bucket4j-style: the whole bucket refills at the window's end).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Call, readText, sendRaw } from './http-kit.ts';
import type { State } from './state.ts';

export const TOKEN_PATH = '/oauth2/token';

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function tokenError(res: ServerResponse, status: number, error: string, description: string): void {
  if (status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="wisteria"');
  sendRaw(res, status, { error, error_description: description });
}

/** POST /oauth2/token: grant_type=client_credentials, client_secret_basic or client_secret_post. */
export async function handleToken(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return tokenError(res, 405, 'invalid_request', 'POST only');
  const form = new URLSearchParams(await readText(req));
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic?.[1] && state.options.tokenAuth === 'post') {
    return tokenError(res, 401, 'invalid_client', 'client_secret_basic is not enabled for this client');
  }
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return tokenError(res, 400, 'unsupported_grant_type', 'only client_credentials is supported');
  }
  if (!same(id, state.clientId) || !same(secret, state.clientSecret)) {
    return tokenError(res, 401, 'invalid_client', 'client authentication failed');
  }
  const token = randomBytes(24).toString('base64url');
  const ttl = state.options.tokenTtlSeconds;
  state.tokens.set(token, { clientId: id, expiresAt: Date.now() + ttl * 1000 });
  sendRaw(res, 200, { access_token: token, token_type: 'Bearer', expires_in: ttl, scope: 'connections' });
}

/** RFC 8414 metadata, so a client finds the token endpoint on its own. */
export function authMetadata(state: State, origin: string): Record<string, unknown> {
  const methods =
    state.options.tokenAuth === 'post' ? ['client_secret_post'] : ['client_secret_basic', 'client_secret_post'];
  return {
    issuer: origin,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: methods,
  };
}

export interface Principal {
  token: string;
  clientId: string;
  tenant: string;
  expiresAt: number;
}

/** Bearer token, then the tenant header: 401 before 400/403, as Spring Security's filter chain orders it. */
export function authenticate(state: State, call: Call): Principal {
  const m = /^Bearer\s+(\S+)$/i.exec(call.headers.authorization ?? '');
  const token = m?.[1];
  const entry = token === undefined ? undefined : state.tokens.get(token);
  if (token === undefined || entry === undefined || entry.expiresAt <= Date.now()) {
    const err = new ApiError(
      'unauthorized',
      'A valid bearer token is required.',
      undefined,
      'Request a new access token.',
    );
    err.extraHeaders['WWW-Authenticate'] = 'Bearer realm="wisteria"';
    throw err;
  }
  // Counted per token before the tenant is judged, so every refusal after sign-in reports the bucket too.
  countCall(state, call, token);
  const tenant = call.headers['x-service-tenant'];
  if (tenant === undefined || tenant.trim() === '') {
    throw new ApiError('invalid_request', 'Header x-service-tenant is required.');
  }
  if (!state.released.has(tenant)) {
    throw new ApiError(
      'forbidden',
      'This access is not released for the tenant.',
      undefined,
      'Check the permissions of the access.',
    );
  }
  return { token, clientId: entry.clientId, tenant, expiresAt: entry.expiresAt };
}

/** Counts one call against the token's fixed window; sets the headers; 429 when the bucket is empty. */
export function countCall(state: State, call: Call, token: string): void {
  const { rateLimit, windowMs } = state.options;
  const now = Date.now();
  let w = state.windows.get(token);
  if (w === undefined || now - w.start >= windowMs) {
    w = { start: now, used: 0 };
    state.windows.set(token, w);
  }
  const resetSeconds = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
  call.res.setHeader('X-RateLimit-Limit', String(rateLimit));
  if (w.used >= rateLimit) {
    call.res.setHeader('X-RateLimit-Remaining', '0');
    call.res.setHeader('X-RateLimit-Reset', String(resetSeconds));
    const err = new ApiError(
      'rate_limited',
      'Too many calls in this window.',
      undefined,
      `Retry after ${resetSeconds} s.`,
    );
    err.extraHeaders['Retry-After'] = String(resetSeconds);
    throw err;
  }
  w.used += 1;
  call.res.setHeader('X-RateLimit-Remaining', String(rateLimit - w.used));
  call.res.setHeader('X-RateLimit-Reset', String(resetSeconds));
}
