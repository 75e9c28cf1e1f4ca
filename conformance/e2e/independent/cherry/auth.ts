// The token endpoint (client credentials, client_secret_basic only) and the bearer/tenant pipeline plugs.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Conn, header } from './conn.ts';
import type { Client, Store } from './store.ts';

export const TOKEN_PATH = '/auth/token';

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="cherry"';
  res.writeHead(status, headers);
  res.end(JSON.stringify({ error, error_description: description }));
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** POST /auth/token: grant_type=client_credentials, the client authenticated by HTTP Basic (RFC 6749 2.3.1). */
export function tokenEndpoint(
  store: Store,
  req: IncomingMessage,
  res: ServerResponse,
  raw: string,
  ttlSeconds: number,
): void {
  const form = new URLSearchParams(raw);
  const auth = req.headers.authorization ?? '';
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(auth);
  if (!m) {
    if (form.has('client_secret')) {
      oauthError(
        res,
        401,
        'invalid_client',
        'only client_secret_basic is supported: send the client credentials as HTTP Basic',
      );
      return;
    }
    oauthError(res, 401, 'invalid_client', 'client authentication required (HTTP Basic)');
    return;
  }
  const decoded = Buffer.from(m[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const id = decodeURIComponent(decoded.slice(0, Math.max(colon, 0)));
  const secret = decodeURIComponent(decoded.slice(colon + 1));
  const client = store.clients.get(id);
  if (colon < 0 || !client || !safeEqual(client.secret, secret)) {
    oauthError(res, 401, 'invalid_client', 'unknown client or wrong secret');
    return;
  }
  if (form.get('grant_type') !== 'client_credentials') {
    oauthError(res, 400, 'unsupported_grant_type', 'only client_credentials is supported');
    return;
  }
  const token = `chy_${randomBytes(24).toString('base64url')}`;
  store.tokens.set(token, { clientId: client.id, expiresAt: Date.now() + ttlSeconds * 1000 });
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    pragma: 'no-cache',
  });
  res.end(
    JSON.stringify({
      access_token: token,
      token_type: 'Bearer',
      expires_in: ttlSeconds,
      scope: 'connections webhooks audit',
    }),
  );
}

/** RFC 8414 metadata, so clients find the token endpoint and its one authentication method. */
export function authServerMetadata(origin: string): Record<string, unknown> {
  return {
    issuer: origin,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic'],
    response_types_supported: [],
    scopes_supported: ['connections', 'webhooks', 'audit'],
  };
}

/** The bearer plug: the access behind the token, or 401. */
export function authenticate(store: Store, conn: Conn): Client {
  const auth = header(conn, 'authorization') ?? '';
  const m = /^Bearer\s+(\S+)$/i.exec(auth);
  if (!m)
    throw new ApiError('unauthorized', 'a bearer token is required', {
      hint: 'request an access token with client credentials',
    });
  const row = store.tokens.get(m[1] ?? '');
  if (!row || row.expiresAt <= Date.now()) {
    throw new ApiError('unauthorized', 'the access token is unknown or expired', {
      hint: 'request a new access token',
    });
  }
  const client = store.clients.get(row.clientId);
  if (!client) throw new ApiError('unauthorized', 'the access token is no longer valid');
  return client;
}

/** The tenant plug: the x-service-tenant header names a tenant this access is released for, or 403. */
export function tenantFor(store: Store, conn: Conn, client: Client): string {
  const tenant = header(conn, 'x-service-tenant');
  if (!tenant) {
    throw new ApiError('forbidden', 'no tenant given', { hint: 'send the header x-service-tenant' });
  }
  const known = store.tenants.get(tenant);
  if (!known?.released || !client.tenants.includes(tenant)) {
    throw new ApiError('forbidden', 'this access is not released for the tenant', {
      hint: 'check the permissions of the access',
    });
  }
  return tenant;
}

// Hammer-style fixed windows: one bucket per access and environment ("#{access}:#{env}"), counted per call.
export interface RateLimiter {
  limit: number;
  windowMs: number;
  buckets: Map<string, { window: number; count: number }>;
}

export interface RateResult {
  allowed: boolean;
  headers: Record<string, string>;
}

export function createRateLimiter(limit: number, windowMs: number): RateLimiter {
  return { limit, windowMs, buckets: new Map() };
}

/** Hammer.check_rate/3: counts the call in the current window and reports what is left. */
export function checkRate(rl: RateLimiter, key: string, now: number = Date.now()): RateResult {
  const window = Math.floor(now / rl.windowMs);
  let b = rl.buckets.get(key);
  if (!b || b.window !== window) {
    b = { window, count: 0 };
    rl.buckets.set(key, b);
  }
  b.count += 1;
  const allowed = b.count <= rl.limit;
  const resetAt = (window + 1) * rl.windowMs;
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(rl.limit),
    'x-ratelimit-remaining': String(Math.max(0, rl.limit - b.count)),
    'x-ratelimit-reset': String(Math.ceil(resetAt / 1000)),
  };
  if (!allowed) headers['retry-after'] = String(Math.max(1, Math.ceil((resetAt - now) / 1000)));
  return { allowed, headers };
}
