// OAuth client credentials (the token endpoint and its RFC 8414 metadata), bearer checks, the tenant
// header and the fixed-window rate limit per token.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type CallContext, newId } from './http-util.ts';
import type { State } from './state.ts';

export const TOKEN_PATH = '/oauth2/token';
export const METADATA_PATH = '/.well-known/oauth-authorization-server';

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthAnswer(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...extra });
  res.end(JSON.stringify(body));
}

export function metadata(res: ServerResponse, origin: string): void {
  oauthAnswer(res, 200, {
    issuer: origin,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
  });
}

/** POST /oauth2/token, grant_type=client_credentials, client authenticated by Basic or in the form. */
export function issueToken(state: State, res: ServerResponse, req: IncomingMessage, raw: string): void {
  const form = new URLSearchParams(raw);
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
  if (basic?.[1]) {
    const text = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = text.indexOf(':');
    id = decodeURIComponent(text.slice(0, colon));
    secret = decodeURIComponent(text.slice(colon + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    oauthAnswer(res, 400, { error: 'unsupported_grant_type', error_description: 'only client_credentials' });
    return;
  }
  if (!same(id, state.clientId) || !same(secret, state.clientSecret)) {
    oauthAnswer(
      res,
      401,
      { error: 'invalid_client', error_description: 'unknown client or wrong secret' },
      {
        'WWW-Authenticate': 'Basic realm="baobab"',
      },
    );
    return;
  }
  const token = newId(40);
  const ttl = state.opts.tokenTtlSeconds;
  state.tokens.set(token, { clientId: id, expiresAt: Date.now() + ttl * 1000 });
  oauthAnswer(res, 200, {
    access_token: token,
    token_type: 'Bearer',
    expires_in: ttl,
    scope: 'connections webhooks audit',
  });
}

export interface Caller {
  clientId: string;
  tenant: string;
  token: string;
  tokenExpiresAt: number;
}

/** Counts the call in the token's fixed window and sets the X-RateLimit-* headers; 429 when exhausted. */
function countCall(state: State, token: string, ctx: CallContext): void {
  const now = Date.now();
  const { rateLimit, windowMs } = state.opts;
  let w = state.windows.get(token);
  if (!w || now - w.start >= windowMs) {
    w = { start: now, count: 0 };
    state.windows.set(token, w);
  }
  const end = w.start + windowMs;
  w.count += 1;
  ctx.headers['X-RateLimit-Limit'] = String(rateLimit);
  ctx.headers['X-RateLimit-Remaining'] = String(Math.max(0, rateLimit - w.count));
  ctx.headers['X-RateLimit-Reset'] = String(Math.ceil(end / 1000));
  if (w.count > rateLimit) {
    const err = new ApiError(
      'rate_limited',
      'Rate limit exceeded',
      undefined,
      'wait for Retry-After seconds, then retry with growing intervals',
    );
    err.headers['Retry-After'] = String(Math.max(1, Math.ceil((end - now) / 1000)));
    throw err;
  }
}

/** Bearer token, then the rate window, then the tenant header (400 missing, 403 not released). */
export function authenticate(state: State, req: IncomingMessage, ctx: CallContext): Caller {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(String(req.headers.authorization ?? ''));
  const token = m?.[1];
  const entry = token ? state.tokens.get(token) : undefined;
  if (!token || !entry || entry.expiresAt <= Date.now()) {
    const err = new ApiError('unauthorized', 'Not authenticated', undefined, 'request a new access token');
    err.headers['WWW-Authenticate'] = 'Bearer realm="baobab"';
    throw err;
  }
  countCall(state, token, ctx);
  const tenant = req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant.trim() === '') {
    throw new ApiError('invalid_request', 'Request validation failed', 'header.x-service-tenant: Field required');
  }
  if (!state.released.has(tenant)) {
    throw new ApiError(
      'forbidden',
      'Access is not released for this tenant',
      undefined,
      'check the permissions of the access',
    );
  }
  return { clientId: entry.clientId, tenant, token, tokenExpiresAt: entry.expiresAt };
}
