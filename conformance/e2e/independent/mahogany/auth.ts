// OAuth client credentials (XSUAA-style token endpoint), bearer tokens, tenant release and rate limits.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Ctx, readBody } from './http.ts';
import { CLIENT_ID, CLIENT_SECRET, RELEASED_TENANTS, SCOPES } from './options.ts';
import type { State } from './state.ts';

function same(a: string, b: string) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function decode(s: string) {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

function oauthAnswer(res: ServerResponse, status: number, body: Record<string, unknown>, extra = {}) {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    pragma: 'no-cache',
    ...extra,
  });
  res.end(JSON.stringify(body));
}

/** POST /oauth/token: grant_type=client_credentials with client_secret_basic or client_secret_post. */
export async function tokenEndpoint(state: State, req: IncomingMessage, res: ServerResponse) {
  if (req.method !== 'POST') {
    oauthAnswer(res, 405, { error: 'invalid_request', error_description: 'use POST' }, { allow: 'POST' });
    return;
  }
  const form = new URLSearchParams(await readBody(req));
  let id = form.get('client_id') ?? undefined;
  let secret = form.get('client_secret') ?? undefined;
  const authz = req.headers.authorization ?? '';
  if (/^basic /i.test(authz)) {
    const text = Buffer.from(authz.slice(6).trim(), 'base64').toString('utf8');
    const i = text.indexOf(':');
    if (i > 0) {
      id = text.slice(0, i);
      secret = text.slice(i + 1);
    }
  }
  const idOk = id !== undefined && (same(id, CLIENT_ID) || same(decode(id), CLIENT_ID));
  const secretOk = secret !== undefined && (same(secret, CLIENT_SECRET) || same(decode(secret), CLIENT_SECRET));
  if (!idOk || !secretOk) {
    oauthAnswer(
      res,
      401,
      { error: 'invalid_client', error_description: 'client authentication failed' },
      { 'www-authenticate': 'Basic realm="mahogany"' },
    );
    return;
  }
  if (form.get('grant_type') !== 'client_credentials') {
    oauthAnswer(res, 400, { error: 'unsupported_grant_type', error_description: 'only client_credentials' });
    return;
  }
  const token = randomBytes(32).toString('base64url');
  const ttl = state.options.tokenTtlSeconds;
  const scope = SCOPES.join(' ');
  state.tokens.set(token, { clientId: CLIENT_ID, expiresAt: Date.now() + ttl * 1000, scope });
  oauthAnswer(res, 200, {
    access_token: token,
    token_type: 'bearer',
    expires_in: ttl,
    scope,
    jti: randomBytes(16).toString('hex'),
  });
}

const bearerChallenge = (error?: string) => ({
  'www-authenticate': error ? `Bearer realm="mahogany", error="${error}"` : 'Bearer realm="mahogany"',
});

/** Checks the bearer token; sets ctx.clientId. */
export function authenticate(ctx: Ctx) {
  const authz = ctx.req.headers.authorization ?? '';
  const m = /^bearer\s+(\S+)\s*$/i.exec(authz);
  if (!m?.[1]) {
    throw new ApiError(
      'unauthorized',
      'Call was not signed in',
      'A bearer token is required.',
      'Request an access token.',
      bearerChallenge(),
    );
  }
  const t = ctx.state.tokens.get(m[1]);
  if (!t || t.expiresAt <= Date.now()) {
    if (t) ctx.state.tokens.delete(m[1]);
    throw new ApiError(
      'unauthorized',
      'Call was not signed in',
      'The token is unknown or expired.',
      'Request a new access token and check the environment.',
      bearerChallenge('invalid_token'),
    );
  }
  ctx.clientId = t.clientId;
}

/** Checks the x-service-tenant header (any letter case); sets ctx.tenant. */
export function checkTenant(ctx: Ctx) {
  const raw = ctx.req.headers['x-service-tenant'];
  const tenant = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!tenant) {
    throw new ApiError('invalid_request', 'Header x-service-tenant is required', 'x-service-tenant: missing');
  }
  if (!RELEASED_TENANTS.has(tenant)) {
    throw new ApiError(
      'forbidden',
      'Access may not act for this tenant',
      'The tenant is not released for this client.',
      'Check the permissions of the access.',
    );
  }
  ctx.tenant = tenant;
}

/** Fixed window per access and tenant (before the tenant check, so 403 answers carry the headers too); sets the X-RateLimit-* headers, answers 429 with Retry-After. */
export function rateLimit(ctx: Ctx) {
  const { rateLimit: limit, windowMs } = ctx.state.options;
  const raw = ctx.req.headers['x-service-tenant'];
  const key = `${ctx.clientId}|${(Array.isArray(raw) ? raw[0] : raw)?.trim() ?? ''}`;
  const now = Date.now();
  let w = ctx.state.rate.get(key);
  if (!w || now - w.windowStart >= windowMs) {
    w = { windowStart: now, count: 0 };
    ctx.state.rate.set(key, w);
  }
  const resetSeconds = Math.max(1, Math.ceil((w.windowStart + windowMs - now) / 1000));
  ctx.headers['x-ratelimit-limit'] = String(limit);
  if (w.count >= limit) {
    ctx.headers['x-ratelimit-remaining'] = '0';
    throw new ApiError(
      'rate_limited',
      'Too many calls in a short time',
      `At most ${limit} calls per ${windowMs / 1000} s for this access and tenant.`,
      'Respect Retry-After and retry with growing intervals.',
      { 'retry-after': String(resetSeconds) },
    );
  }
  w.count++;
  ctx.headers['x-ratelimit-remaining'] = String(limit - w.count);
}
