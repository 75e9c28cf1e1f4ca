// cedar's authorization server (client credentials only) and the gateway in front of the API:
// bearer tokens, tenant release, a sliding-window rate limit per token and tenant.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Ctx } from './http-kit.ts';
import { ApiError, readBody } from './http-kit.ts';

export type Client = { id: string; secret: string; tenants: string[]; purpose: string; owner: string };
export type Token = { value: string; clientId: string; expiresAt: number };
export type Principal = { client: Client; token: Token; tenant: string };

const TOKEN_TTL_S = 900;

export function createAuth(opts: { clients: Client[]; rateLimit: number; windowMs: number }) {
  const tokens = new Map<string, Token>();
  const windows = new Map<string, number[]>();

  function safeEqual(a: string, b: string): boolean {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  }

  function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
    if (status === 401) headers['www-authenticate'] = 'Basic realm="cedar"';
    res.writeHead(status, headers);
    res.end(JSON.stringify({ error, error_description: description }));
  }

  /** POST /oauth2/token: RFC 6749 client credentials, client_secret_basic or client_secret_post. */
  async function tokenEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return oauthError(res, 405, 'invalid_request', 'use POST');
    const form = new URLSearchParams(await readBody(req));
    let id = form.get('client_id') ?? '';
    let secret = form.get('client_secret') ?? '';
    const basic = /^Basic\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
    if (basic?.[1]) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      id = decodeURIComponent(decoded.slice(0, colon));
      secret = decodeURIComponent(decoded.slice(colon + 1));
    }
    const client = opts.clients.find((c) => c.id === id);
    if (!client || !safeEqual(client.secret, secret))
      return oauthError(res, 401, 'invalid_client', 'unknown client or wrong secret');
    if (form.get('grant_type') !== 'client_credentials') {
      return oauthError(res, 400, 'unsupported_grant_type', 'only client_credentials is offered');
    }
    const token: Token = {
      value: `cdr_${randomBytes(24).toString('base64url')}`,
      clientId: client.id,
      expiresAt: Date.now() + TOKEN_TTL_S * 1000,
    };
    tokens.set(token.value, token);
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
    res.end(
      JSON.stringify({
        access_token: token.value,
        token_type: 'Bearer',
        expires_in: TOKEN_TTL_S,
        scope: 'connections',
      }),
    );
  }

  /** Authorization header and tenant: 401 without a valid token, 400 without tenant, 403 when not released. */
  function authenticate(ctx: Ctx): Principal {
    const m = /^Bearer ([A-Za-z0-9._~+/=-]+)$/i.exec(String(ctx.req.headers.authorization ?? '').trim());
    const token = m?.[1] ? tokens.get(m[1]) : undefined;
    if (!token || token.expiresAt <= Date.now()) {
      throw new ApiError(
        'unauthorized',
        'a valid bearer token is required',
        'request a new access token at /oauth2/token',
      );
    }
    const client = opts.clients.find((c) => c.id === token.clientId);
    if (!client) throw new ApiError('unauthorized', 'the client of this token no longer exists');
    const tenant = ctx.req.headers['x-service-tenant'];
    if (typeof tenant !== 'string' || tenant.trim() === '') {
      throw new ApiError('invalid_request', 'the header x-service-tenant is required');
    }
    if (!client.tenants.includes(tenant)) {
      throw new ApiError(
        'forbidden',
        'this access is not released for the tenant',
        'check the permissions of the access',
      );
    }
    return { client, token, tenant };
  }

  /** Sliding window log per token and tenant; sets the X-RateLimit headers on every counted answer. */
  function count(ctx: Ctx, p: Principal): void {
    const key = `${p.token.value}|${p.tenant}`;
    const now = Date.now();
    const log = (windows.get(key) ?? []).filter((t) => t > now - opts.windowMs);
    windows.set(key, log);
    ctx.headers['x-ratelimit-limit'] = String(opts.rateLimit);
    // The IETF draft's policy header beside the interface's X-RateLimit-* headers (gateway habit).
    ctx.headers['ratelimit-policy'] = `${opts.rateLimit};w=${Math.round(opts.windowMs / 1000)}`;
    if (log.length >= opts.rateLimit) {
      const oldest = log[0] ?? now;
      const wait = Math.max(1, Math.ceil((oldest + opts.windowMs - now) / 1000));
      ctx.headers['x-ratelimit-remaining'] = '0';
      ctx.headers['retry-after'] = String(wait);
      throw new ApiError(
        'rate_limited',
        `at most ${opts.rateLimit} calls in ${opts.windowMs / 1000} s`,
        `wait ${wait} s`,
      );
    }
    log.push(now);
    ctx.headers['x-ratelimit-remaining'] = String(opts.rateLimit - log.length);
  }

  return { tokenEndpoint, authenticate, count, tokens };
}
export type Auth = ReturnType<typeof createAuth>;
