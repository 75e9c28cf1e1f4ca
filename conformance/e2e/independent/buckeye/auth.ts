// The OAuth 2.1 authorization server (client credentials only: the interface is called from servers) and
// the bearer check of every authenticated call (tokens are opaque and short-lived; nothing is refreshed),
// then the token bucket per access, tenant and environment (the interface configures limits along those three):
// a full bucket holds `rateLimit` calls and refills continuously, empty to full in `windowMs`.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Ctx } from './http-kit.ts';
import type { State } from './state.ts';

export const TOKEN_PATH = '/auth/oauth2/token';

export interface Access {
  clientId: string;
  tenant: string;
  expiresAt: number;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthReply(
  res: ServerResponse,
  status: number,
  body: Record<string, unknown>,
  extra: Record<string, string> = {},
) {
  res.writeHead(status, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    pragma: 'no-cache',
    ...extra,
  });
  res.end(JSON.stringify(body));
}

/** RFC 8414 metadata, so clients discover the token endpoint. */
export function metadata(res: ServerResponse, origin: string): void {
  oauthReply(res, 200, {
    issuer: origin,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    response_types_supported: [],
    scopes_supported: ['ncs'],
  });
}

/** POST /auth/oauth2/token: form-encoded client credentials grant. */
export async function tokenEndpoint(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return oauthReply(res, 405, { error: 'invalid_request' }, { allow: 'POST' });
  let raw = '';
  for await (const c of req) raw += c;
  if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    return oauthReply(res, 400, { error: 'invalid_request', error_description: 'form-encoded body required' });
  }
  const form = new URLSearchParams(raw);
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = req.headers.authorization?.match(/^Basic\s+(.+)$/i);
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, colon));
    secret = decodeURIComponent(decoded.slice(colon + 1));
  }
  const client = state.clients.get(id);
  if (!client || !same(client.secret, secret)) {
    return oauthReply(
      res,
      401,
      { error: 'invalid_client', error_description: 'unknown client or wrong secret' },
      {
        'www-authenticate': 'Basic realm="buckeye"',
      },
    );
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return oauthReply(res, 400, { error: 'unsupported_grant_type', error_description: 'client_credentials only' });
  }
  const token = `bat_${randomBytes(24).toString('base64url')}`;
  const ttl = state.options.tokenTtlSeconds;
  state.tokens.set(token, { clientId: id, expiresAt: Date.now() + ttl * 1000 });
  oauthReply(res, 200, {
    access_token: token,
    token_type: 'Bearer',
    expires_in: ttl,
    scope: form.get('scope') ?? 'ncs',
  });
}

function unauthorized(message: string): ApiError {
  const err = new ApiError(401, 'unauthorized', message, undefined, `request a new access token at ${TOKEN_PATH}`);
  err.headers['www-authenticate'] = 'Bearer realm="buckeye", error="invalid_token"';
  return err;
}

/** The caller of an authenticated route: token first (401), then the tenant header (400/403). */
export function authenticate(state: State, ctx: Ctx): Access {
  const header = ctx.req.headers.authorization ?? '';
  const m = header.match(/^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i);
  if (!m?.[1]) throw unauthorized('bearer token missing');
  const token = state.tokens.get(m[1]);
  if (!token) throw unauthorized('token unknown');
  if (token.expiresAt <= Date.now()) {
    state.tokens.delete(m[1]);
    throw unauthorized('token expired');
  }
  // Credentials never come from a browser: a call carrying an Origin is refused before it touches data.
  if (ctx.req.headers.origin) {
    throw new ApiError(
      403,
      'forbidden',
      'calls from a browser are not allowed',
      undefined,
      'call the interface from your backend',
    );
  }
  const tenantHeader = ctx.req.headers['x-service-tenant'];
  const tenant = Array.isArray(tenantHeader) ? tenantHeader[0] : tenantHeader;
  if (!tenant || tenant.trim() === '') {
    throw new ApiError(
      400,
      'invalid_request',
      'x-service-tenant header missing',
      undefined,
      'send the tenant identifier',
    );
  }
  const client = state.clients.get(token.clientId);
  if (!client || !state.tenants.has(tenant) || !client.tenants.includes(tenant)) {
    throw new ApiError(
      403,
      'forbidden',
      'this access is not released for the tenant',
      undefined,
      'check the permissions of the access',
    );
  }
  return { clientId: token.clientId, tenant, expiresAt: token.expiresAt };
}

/** This deployment is the sandbox; a production deployment would key its buckets apart. */
export const ENVIRONMENT = 'sandbox';

/** Takes one token or throws 429; sets X-RateLimit-* on the answer either way. */
export function takeToken(state: State, ctx: Ctx, access: Access): void {
  const { rateLimit, windowMs } = state.options;
  const key = `${access.clientId}|${access.tenant}|${ENVIRONMENT}`;
  const now = Date.now();
  const perMs = rateLimit / windowMs;
  const bucket = state.buckets.get(key) ?? { tokens: rateLimit, updated: now };
  bucket.tokens = Math.min(rateLimit, bucket.tokens + (now - bucket.updated) * perMs);
  bucket.updated = now;
  state.buckets.set(key, bucket);
  ctx.res.setHeader('x-ratelimit-limit', String(rateLimit));
  if (bucket.tokens < 1) {
    ctx.res.setHeader('x-ratelimit-remaining', '0');
    const wait = Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
    const err = new ApiError(
      429,
      'rate_limited',
      'too many calls in a short time',
      `retry after ${wait} s`,
      'respect Retry-After and retry with growing intervals',
    );
    err.headers['retry-after'] = String(wait);
    throw err;
  }
  bucket.tokens -= 1;
  ctx.res.setHeader('x-ratelimit-remaining', String(Math.floor(bucket.tokens)));
}
