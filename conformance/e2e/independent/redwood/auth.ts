// OAuth 2.1 client credentials (the only flow a server-to-server partner needs here), opaque bearer tokens
// of 600 s, the tenant header, and fixed rate-limit windows per client, tenant and environment.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Ctx } from './http-util.ts';

export interface Access {
  clientId: string;
  tenant: string;
  environment: string;
  tokenExpiresAt: number;
}

export interface AuthConfig {
  clientId: string;
  clientSecret: string;
  tenants: string[];
  tokenTtlS: number;
  rateLimit: number;
  windowMs: number;
}

export function createAuth(cfg: AuthConfig) {
  const tokens = new Map<string, { clientId: string; expiresAt: number }>();
  const windows = new Map<string, { start: number; count: number }>();

  const sameSecret = (a: string, b: string) => {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  };

  /** POST token endpoint (RFC 6749 §4.4): client_secret_basic or client_secret_post, form-encoded. */
  async function tokenEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
      res.end(JSON.stringify(body));
    };
    let raw = '';
    for await (const c of req) raw += c;
    const form = new URLSearchParams(raw);
    let id = form.get('client_id') ?? '';
    let secret = form.get('client_secret') ?? '';
    const basic = /^Basic\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
    if (basic) {
      const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      id = decodeURIComponent(colon < 0 ? decoded : decoded.slice(0, colon));
      secret = decodeURIComponent(colon < 0 ? '' : decoded.slice(colon + 1));
    }
    if (form.get('grant_type') !== 'client_credentials')
      return send(400, { error: 'unsupported_grant_type', error_description: 'only client_credentials is supported' });
    if (id !== cfg.clientId || !sameSecret(secret, cfg.clientSecret))
      return send(401, { error: 'invalid_client', error_description: 'unknown client or wrong secret' });
    const token = `rwat_${randomBytes(24).toString('base64url')}`;
    tokens.set(token, { clientId: id, expiresAt: Date.now() + cfg.tokenTtlS * 1000 });
    send(200, {
      access_token: token,
      token_type: 'Bearer',
      expires_in: cfg.tokenTtlS,
      scope: 'connections webhooks audit',
    });
  }

  function metadata(origin: string): Record<string, unknown> {
    return {
      issuer: origin,
      token_endpoint: `${origin}/auth/v1/token`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      scopes_supported: ['connections', 'webhooks', 'audit'],
    };
  }

  /** 401 before 403 before counting: a refused caller is not counted against anyone's window. */
  function authenticate(ctx: Ctx): Access {
    const m = /^Bearer\s+(\S+)$/i.exec(String(ctx.req.headers.authorization ?? ''));
    const t = m?.[1] ? tokens.get(m[1]) : undefined;
    if (!t || t.expiresAt <= Date.now()) {
      if (t) tokens.delete(m?.[1] ?? '');
      throw new ApiError(
        401,
        'unauthorized',
        'The call was not signed in.',
        t ? 'token expired' : 'bearer token missing or unknown',
        'Request a new access token.',
      );
    }
    const tenant = String(ctx.req.headers['x-service-tenant'] ?? '').trim();
    if (!tenant)
      throw new ApiError(
        400,
        'invalid_request',
        'The request is incomplete or unsuitable.',
        'x-service-tenant: header required',
      );
    if (!cfg.tenants.includes(tenant))
      throw new ApiError(
        403,
        'forbidden',
        'This access may not perform the action.',
        'tenant not released for this client',
        'Check the permissions of the access.',
      );
    const access = { clientId: t.clientId, tenant, environment: 'sandbox', tokenExpiresAt: t.expiresAt };
    count(ctx, access);
    return access;
  }

  /** Fixed windows aligned to multiples of windowMs (10 s in production); headers on every counted answer. */
  function count(ctx: Ctx, a: Access): void {
    const now = Date.now();
    const start = now - (now % cfg.windowMs);
    const key = `${a.clientId}|${a.tenant}|${a.environment}`;
    let w = windows.get(key);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      windows.set(key, w);
    }
    w.count++;
    const resetS = Math.max(1, Math.ceil((start + cfg.windowMs - now) / 1000));
    ctx.extraHeaders['x-ratelimit-limit'] = String(cfg.rateLimit);
    ctx.extraHeaders['x-ratelimit-remaining'] = String(Math.max(0, cfg.rateLimit - w.count));
    ctx.extraHeaders['x-ratelimit-reset'] = String(resetS);
    if (w.count > cfg.rateLimit) {
      const e = new ApiError(
        429,
        'rate_limited',
        'Too many calls in a short time.',
        `limit ${cfg.rateLimit} per ${cfg.windowMs / 1000} s window`,
        'Respect Retry-After and retry with growing intervals.',
      );
      e.headers = { 'retry-after': String(resetS) };
      throw e;
    }
  }

  return { tokenEndpoint, metadata, authenticate };
}
