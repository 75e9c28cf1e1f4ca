// The gateway in front of every authenticated call: bearer token, tenant header, rate limit (per token and
// tenant, fixed window), and the Service-Version header (required on modifying calls only).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Ctx, VERSIONS, writeJson } from './http.ts';
import { randomToken, type State } from './state.ts';

export const TOKEN_PATH = '/auth/realms/jacaranda/protocol/openid-connect/token';
const TOKEN_TTL_S = 600;

export interface RateLimiter {
  limit: number;
  windowMs: number;
  buckets: Map<string, { start: number; used: number }>;
}

export function newLimiter(limit: number, windowMs: number): RateLimiter {
  return { limit, windowMs, buckets: new Map() };
}

/** Counts one call; sets the X-RateLimit-* headers and throws rate_limited past the limit. */
export function countCall(rl: RateLimiter, key: string, res: ServerResponse, factor = 1): void {
  const limit = rl.limit * factor;
  const now = Date.now();
  let b = rl.buckets.get(key);
  if (!b || now - b.start >= rl.windowMs) {
    b = { start: now, used: 0 };
    rl.buckets.set(key, b);
  }
  const resetS = Math.max(1, Math.ceil((b.start + rl.windowMs - now) / 1000));
  res.setHeader('X-RateLimit-Limit', String(limit));
  res.setHeader('X-RateLimit-Reset', String(resetS));
  if (b.used >= limit) {
    res.setHeader('X-RateLimit-Remaining', '0');
    throw new ApiError('rate_limited', 'too many calls in this window', {
      hint: `retry after ${resetS} s`,
      headers: { 'Retry-After': String(resetS) },
    });
  }
  b.used += 1;
  res.setHeader('X-RateLimit-Remaining', String(limit - b.used));
}

/** Authenticates an interface call and fills ctx.clientId / ctx.tenant; counts it against the limit. */
export function guard(state: State, rl: RateLimiter, ctx: Ctx): void {
  const auth = String(ctx.req.headers.authorization ?? '');
  const m = /^bearer\s+(\S+)$/i.exec(auth.trim());
  const tok = m?.[1] ? state.tokens.get(m[1]) : undefined;
  if (!m?.[1] || !tok || tok.expiresAt <= Date.now()) {
    // Anonymous answers are counted per peer address, so they carry the headers too.
    countCall(rl, `anon:${ctx.req.socket.remoteAddress ?? ''}`, ctx.res);
    throw new ApiError('unauthorized', 'a valid bearer token is required', {
      hint: 'request a new access token with the client credentials grant',
    });
  }
  const tenant = String(ctx.req.headers['x-service-tenant'] ?? '').trim();
  countCall(rl, `${m[1]}|${tenant}`, ctx.res, state.choices.tenantLimits && tenant === 'jac-market' ? 2 : 1);
  if (!tenant) {
    throw new ApiError('invalid_request', 'header x-service-tenant is required', {
      hint: 'name the tenant of the call',
    });
  }
  const t = state.tenants.get(tenant);
  if (!t?.released) throw new ApiError('forbidden', 'this access is not released for the tenant');
  ctx.clientId = tok.clientId;
  ctx.tenant = tenant;
  if (ctx.req.method !== 'GET' && ctx.req.headers['service-version'] === undefined) {
    throw new ApiError('invalid_request', 'header Service-Version is required on modifying calls', {
      hint: `send Service-Version: ${VERSIONS[0]}`,
    });
  }
}

/** Reads Service-Version on any call: a published value is answered as that version; others are refused. */
export function readVersion(ctx: Ctx): void {
  const v = ctx.req.headers['service-version'];
  if (v === undefined) return;
  const value = String(v).trim();
  if (!VERSIONS.includes(value)) {
    throw new ApiError('invalid_request', 'unknown Service-Version', {
      hint: `published versions: ${VERSIONS.join(', ')}`,
    });
  }
  ctx.version = value;
}

function oauthError(res: ServerResponse, status: number, error: string, description: string) {
  writeJson(
    res,
    status,
    { error, error_description: description },
    status === 401 ? { 'WWW-Authenticate': 'Basic realm="jacaranda"' } : {},
  );
}

/** OAuth 2.1 client credentials (client_secret_basic or client_secret_post); opaque tokens. */
export async function tokenEndpoint(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return oauthError(res, 405, 'invalid_request', 'use POST');
  let body = '';
  for await (const c of req) body += c;
  const form = new URLSearchParams(body);
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^basic\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''));
  if (basic?.[1] && state.choices.tokenPostOnly) {
    return oauthError(res, 401, 'invalid_client', 'use client_secret_post');
  }
  if (basic?.[1]) {
    const raw = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = raw.indexOf(':');
    id = decodeURIComponent(raw.slice(0, i));
    secret = decodeURIComponent(raw.slice(i + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return oauthError(res, 400, 'unsupported_grant_type', 'only client_credentials is offered');
  }
  if (id !== state.clientId || secret !== state.clientSecret) {
    return oauthError(res, 401, 'invalid_client', 'client authentication failed');
  }
  const token = randomToken(32);
  state.tokens.set(token, { clientId: id, expiresAt: Date.now() + TOKEN_TTL_S * 1000 });
  writeJson(res, 200, {
    access_token: token,
    token_type: 'Bearer',
    expires_in: TOKEN_TTL_S,
    scope: 'ncs.read ncs.write',
  });
}
