// IdentityServer-style token endpoint (/connect/token, client credentials, reference tokens), the bearer
// check, the tenant release check (x-service-tenant) and a fixed-window rate limiter per access, tenant
// and environment.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, readBody } from './util.ts';

export interface Client {
  clientId: string;
  clientSecret: string;
  tenants: string[];
}

interface Token {
  clientId: string;
  expiresAt: number;
}

export interface Access {
  clientId: string;
  tenant: string;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class Auth {
  private readonly tokens = new Map<string, Token>();
  readonly client: Client;
  readonly knownTenants: string[];
  private readonly tokenTtlSeconds: number;
  readonly environment: string;
  constructor(client: Client, knownTenants: string[], tokenTtlSeconds: number, environment: string) {
    this.client = client;
    this.knownTenants = knownTenants;
    this.tokenTtlSeconds = tokenTtlSeconds;
    this.environment = environment;
  }

  /** POST /connect/token: client_secret_basic or client_secret_post, grant_type=client_credentials. */
  async tokenEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        pragma: 'no-cache',
        ...headers,
      });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST') {
      send(405, { error: 'invalid_request', error_description: 'POST required' }, { allow: 'POST' });
      return;
    }
    let form: URLSearchParams;
    try {
      form = new URLSearchParams(await readBody(req, 16 * 1024));
    } catch {
      send(400, { error: 'invalid_request' });
      return;
    }
    let id = form.get('client_id') ?? '';
    let secret = form.get('client_secret') ?? '';
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (basic?.[1]) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      if (i > 0) {
        try {
          id = decodeURIComponent(decoded.slice(0, i).replace(/\+/g, ' '));
          secret = decodeURIComponent(decoded.slice(i + 1).replace(/\+/g, ' '));
        } catch {
          id = '';
        }
      }
    }
    if (!safeEqual(id, this.client.clientId) || !safeEqual(secret, this.client.clientSecret)) {
      send(401, { error: 'invalid_client' }, { 'www-authenticate': 'Basic realm="ironbark"' });
      return;
    }
    const grant = form.get('grant_type');
    if (grant !== 'client_credentials') {
      send(400, { error: grant ? 'unsupported_grant_type' : 'invalid_request' });
      return;
    }
    const token = randomBytes(32).toString('hex').toUpperCase(); // IdentityServer reference token
    this.tokens.set(token, { clientId: id, expiresAt: Date.now() + this.tokenTtlSeconds * 1000 });
    send(200, { access_token: token, expires_in: this.tokenTtlSeconds, token_type: 'Bearer', scope: 'ncs.api' });
  }

  /** The bearer check (401) and the tenant release check (400 missing, 403 not released). */
  authenticate(req: IncomingMessage): Access {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    const challenge = { 'www-authenticate': 'Bearer realm="ironbark"' };
    if (!m?.[1]) {
      throw new ApiError('unauthorized', 'Missing bearer token', undefined, 'Request an access token', challenge);
    }
    const t = this.tokens.get(m[1]);
    if (!t || t.expiresAt <= Date.now()) {
      if (t) this.tokens.delete(m[1]);
      const challengeInvalid = { 'www-authenticate': 'Bearer realm="ironbark", error="invalid_token"' };
      throw new ApiError(
        'unauthorized',
        'The access token is invalid or expired',
        undefined,
        'Request a new access token and check the environment',
        challengeInvalid,
      );
    }
    const raw = req.headers['x-service-tenant'];
    const tenant = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    if (!tenant) {
      throw new ApiError('invalid_request', 'Header x-service-tenant is required', 'x-service-tenant: required');
    }
    if (!this.client.tenants.includes(tenant)) {
      throw new ApiError('forbidden', 'The tenant is not released for this access', undefined, 'Check the permissions');
    }
    return { clientId: t.clientId, tenant };
  }
}

/** Fixed window per access, tenant and environment. */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  readonly limit: number;
  readonly windowMs: number;
  constructor(limit: number, windowMs: number) {
    this.limit = limit;
    this.windowMs = windowMs;
  }

  take(key: string): { headers: Record<string, string>; retryAfter?: number } {
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    const reset = Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
    if (w.count >= this.limit) {
      return {
        headers: {
          'x-ratelimit-limit': String(this.limit),
          'x-ratelimit-remaining': '0',
          'retry-after': String(reset),
        },
        retryAfter: reset,
      };
    }
    w.count += 1;
    return {
      headers: {
        'x-ratelimit-limit': String(this.limit),
        'x-ratelimit-remaining': String(this.limit - w.count),
        'x-ratelimit-reset': String(reset),
      },
    };
  }
}
