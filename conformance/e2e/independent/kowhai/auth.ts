// oauth2-server's client credentials grant (its token answer and its error shapes), the bearer check, the
// tenant release, and express-rate-limit (draft-7 `RateLimit`/`RateLimit-Policy` plus legacy `X-RateLimit-*`).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, readBody } from './http.ts';

interface Token {
  clientId: string;
  expiresAt: number;
}

function oauthError(res: ServerResponse, status: number, error: string, description: string, basic = false) {
  const body = JSON.stringify({ error, error_description: description });
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  if (basic) res.setHeader('WWW-Authenticate', 'Basic realm="Service"');
  res.writeHead(status);
  res.end(body);
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export class OAuthServer {
  private readonly tokens = new Map<string, Token>();
  private readonly client: { id: string; secret: string; tenants: string[] };
  private readonly ttlSeconds: number;
  constructor(client: { id: string; secret: string; tenants: string[] }, ttlSeconds: number) {
    this.client = client;
    this.ttlSeconds = ttlSeconds;
  }

  /** POST /oauth/token as oauth2-server's `server.token()` answers it. */
  async token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    if (req.method !== 'POST') return oauthError(res, 400, 'invalid_request', 'Invalid request: method must be POST');
    if (!/application\/x-www-form-urlencoded/i.test(String(req.headers['content-type'] ?? '')))
      return oauthError(
        res,
        400,
        'invalid_request',
        'Invalid request: content must be application/x-www-form-urlencoded',
      );
    const form = new URLSearchParams(raw);
    const grant = form.get('grant_type');
    if (!grant) return oauthError(res, 400, 'invalid_request', 'Missing parameter: `grant_type`');
    if (grant !== 'client_credentials')
      return oauthError(res, 400, 'unsupported_grant_type', 'Unsupported grant type: `grant_type` is invalid');
    let id = form.get('client_id');
    let secret = form.get('client_secret');
    const authz = String(req.headers.authorization ?? '');
    const basic = /^basic /i.test(authz);
    if (basic) {
      const decoded = Buffer.from(authz.slice(6).trim(), 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      id = decodeURIComponent(decoded.slice(0, i));
      secret = decodeURIComponent(decoded.slice(i + 1));
    }
    if (!id || !secret)
      return oauthError(res, 400, 'invalid_client', 'Invalid client: cannot retrieve client credentials');
    if (!same(id, this.client.id) || !same(secret, this.client.secret))
      return oauthError(res, basic ? 401 : 400, 'invalid_client', 'Invalid client: client is invalid', basic);
    const accessToken = randomBytes(20).toString('hex');
    this.tokens.set(accessToken, { clientId: id, expiresAt: Date.now() + this.ttlSeconds * 1000 });
    const body = JSON.stringify({
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: this.ttlSeconds,
      scope: 'connections',
    });
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');
    res.writeHead(200);
    res.end(body);
  }

  /** The bearer check (401) and the tenant release (400 without the header, 403 when not released). */
  authenticate(req: IncomingMessage): { clientId: string; tenant: string } {
    const m = /^bearer\s+(\S+)\s*$/i.exec(String(req.headers.authorization ?? ''));
    const token = m?.[1] ? this.tokens.get(m[1]) : undefined;
    if (!token || token.expiresAt <= Date.now()) {
      if (token && m?.[1]) this.tokens.delete(m[1]);
      throw new HttpError(
        401,
        'unauthorized',
        'Invalid token: access token is missing, invalid or expired.',
        undefined,
        'Request a new access token.',
        {
          'WWW-Authenticate': 'Bearer realm="Service", error="invalid_token"',
        },
      );
    }
    const header = req.headers['x-service-tenant'];
    const tenant = Array.isArray(header) ? header[0] : header;
    if (!tenant)
      throw new HttpError(
        400,
        'invalid_request',
        'Header x-service-tenant is required.',
        'headers.x-service-tenant: required',
      );
    if (!this.client.tenants.includes(tenant))
      throw new HttpError(
        403,
        'forbidden',
        'This access is not released for the tenant.',
        undefined,
        'Check the permissions of the access.',
      );
    return { clientId: token.clientId, tenant };
  }
}

/** express-rate-limit's MemoryStore with a per-client fixed window, keyed by client and tenant. */
export class RateLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();
  private readonly limit: number;
  private readonly windowMs: number;
  constructor(limit: number, windowMs: number) {
    this.limit = limit;
    this.windowMs = windowMs;
  }

  /** Counts one call, sets the headers, and throws 429 rate_limited beyond the limit. */
  hit(key: string, res: ServerResponse): void {
    const now = Date.now();
    let entry = this.hits.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + this.windowMs };
      this.hits.set(key, entry);
    }
    entry.count += 1;
    const remaining = Math.max(this.limit - entry.count, 0);
    const resetSeconds = Math.max(Math.ceil((entry.resetAt - now) / 1000), 1);
    res.setHeader('RateLimit-Policy', `${this.limit};w=${Math.ceil(this.windowMs / 1000)}`);
    res.setHeader('RateLimit', `limit=${this.limit}, remaining=${remaining}, reset=${resetSeconds}`);
    res.setHeader('X-RateLimit-Limit', String(this.limit));
    res.setHeader('X-RateLimit-Remaining', String(remaining));
    res.setHeader('X-RateLimit-Reset', String(Math.ceil(entry.resetAt / 1000)));
    if (entry.count > this.limit) {
      throw new HttpError(
        429,
        'rate_limited',
        'Too many requests, please try again later.',
        undefined,
        `Retry after ${resetSeconds} seconds.`,
        {
          'Retry-After': String(resetSeconds),
        },
      );
    }
  }
}
