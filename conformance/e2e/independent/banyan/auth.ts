// banyan's access: an OAuth client-credentials token endpoint (opaque tokens), the tenants an access is
// released for, and a token bucket per tenant and environment.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface Client {
  clientId: string;
  clientSecret: string;
  tenants: string[];
}
export interface Token {
  clientId: string;
  expiresAt: number;
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export class Tokens {
  tokens = new Map<string, Token>();
  client: Client;
  lifetimeS: number;
  constructor(client: Client, lifetimeS: number) {
    this.client = client;
    this.lifetimeS = lifetimeS;
  }

  /** POST token endpoint: client_secret_basic or client_secret_post, grant client_credentials (RFC 6749 §4.4). */
  handle(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const form = new URLSearchParams(raw);
    let id = form.get('client_id') ?? '';
    let secret = form.get('client_secret') ?? '';
    const basic = /^basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (basic?.[1]) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const i = decoded.includes(':') ? decoded.indexOf(':') : decoded.length;
      id = decodeURIComponent(decoded.slice(0, i));
      secret = decodeURIComponent(decoded.slice(i + 1));
    }
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST') {
      reply(405, { error: 'invalid_request', error_description: 'use POST' });
      return;
    }
    if (form.get('grant_type') !== 'client_credentials') {
      reply(400, { error: 'unsupported_grant_type', error_description: 'only client_credentials' });
      return;
    }
    if (!same(id, this.client.clientId) || !same(secret, this.client.clientSecret)) {
      reply(401, { error: 'invalid_client', error_description: 'unknown client or wrong secret' });
      return;
    }
    const token = `bnyat_${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, { clientId: id, expiresAt: Date.now() + this.lifetimeS * 1000 });
    reply(200, { access_token: token, token_type: 'Bearer', expires_in: this.lifetimeS, scope: 'connections' });
  }

  /** The token of an `Authorization: Bearer` header (scheme in any letter case), if live. */
  verify(header: string | undefined): Token | undefined {
    const m = /^bearer\s+(\S+)\s*$/i.exec(header ?? '');
    const t = m?.[1] ? this.tokens.get(m[1]) : undefined;
    return t && t.expiresAt > Date.now() ? t : undefined;
  }
}

/** Token bucket per tenant and environment: `capacity` calls, refilled evenly over `windowMs`. */
export class RateLimiter {
  buckets = new Map<string, { tokens: number; at: number }>();
  capacity: number;
  windowMs: number;
  constructor(capacity: number, windowMs: number) {
    this.capacity = capacity;
    this.windowMs = windowMs;
  }

  private bucket(key: string) {
    const now = Date.now();
    const b = this.buckets.get(key) ?? { tokens: this.capacity, at: now };
    b.tokens = Math.min(this.capacity, b.tokens + ((now - b.at) * this.capacity) / this.windowMs);
    b.at = now;
    this.buckets.set(key, b);
    return b;
  }

  /** Takes one token; the headers to send and whether the call may proceed. */
  take(key: string): { ok: boolean; headers: Record<string, string> } {
    const b = this.bucket(key);
    const ok = b.tokens >= 1;
    if (ok) b.tokens -= 1;
    const headers: Record<string, string> = {
      'x-ratelimit-limit': String(this.capacity),
      'x-ratelimit-remaining': String(Math.floor(b.tokens)),
    };
    if (!ok) {
      const waitMs = ((1 - b.tokens) * this.windowMs) / this.capacity;
      headers['retry-after'] = String(Math.max(1, Math.ceil(waitMs / 1000)));
    }
    return { ok, headers };
  }

  /** The headers of an answer refused before counting (nothing taken). */
  peek(key: string): Record<string, string> {
    const b = this.bucket(key);
    return { 'x-ratelimit-limit': String(this.capacity), 'x-ratelimit-remaining': String(Math.floor(b.tokens)) };
  }
}
