// The API Connect style OAuth provider of ebony: client credentials only, short-lived opaque bearer tokens,
// client authentication by HTTP Basic (client_secret_basic) or form fields (client_secret_post).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, readRaw } from './http.ts';

/** The token URL, as an API Connect catalog publishes it: /<organisation>/<catalog>/oauth2/token. */
export const TOKEN_PATH = '/mfzc/sandbox/oauth2/token';

export interface Client {
  clientId: string;
  secret: string;
  /** Tenants this access is released for; others that exist answer 403. */
  released: Set<string>;
}

interface Token {
  clientId: string;
  expiresAt: number;
}

export class Authority {
  readonly clients = new Map<string, Client>();
  readonly tenants = new Set<string>();
  private readonly tokens = new Map<string, Token>();
  private readonly ttlSeconds: number;

  constructor(ttlSeconds: number) {
    this.ttlSeconds = ttlSeconds;
  }

  addClient(released: string[]): Client {
    const client = {
      clientId: randomBytes(16).toString('hex'),
      secret: randomBytes(24).toString('base64url'),
      released: new Set(released),
    };
    this.clients.set(client.clientId, client);
    return client;
  }

  /** POST <TOKEN_PATH>: grant_type=client_credentials, answered in OAuth's own JSON (not the envelope). */
  async tokenEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const reply = (status: number, body: unknown, extra: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'cache-control': 'no-store',
        pragma: 'no-cache',
        ...extra,
      });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST') return reply(405, { error: 'invalid_request', error_description: 'POST required' });
    let raw: string;
    try {
      raw = await readRaw(req, 16_000);
    } catch {
      return reply(400, { error: 'invalid_request' });
    }
    const type = String(req.headers['content-type'] ?? '');
    let form: URLSearchParams;
    if (type.includes('json')) {
      try {
        form = new URLSearchParams(JSON.parse(raw) as Record<string, string>);
      } catch {
        return reply(400, { error: 'invalid_request', error_description: 'malformed body' });
      }
    } else form = new URLSearchParams(raw);
    let id = form.get('client_id') ?? undefined;
    let secret = form.get('client_secret') ?? undefined;
    const basic = /^Basic\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
    if (basic?.[1]) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      if (i > 0) {
        id = decodeURIComponent(decoded.slice(0, i));
        secret = decodeURIComponent(decoded.slice(i + 1));
      }
    }
    const client = id ? this.clients.get(id) : undefined;
    if (!client || !secret || !safeEqual(client.secret, secret)) {
      return reply(
        401,
        { error: 'invalid_client', error_description: 'client authentication failed' },
        {
          'www-authenticate': 'Basic realm="mfzc-sandbox"',
        },
      );
    }
    if (form.get('grant_type') !== 'client_credentials') {
      return reply(400, { error: 'unsupported_grant_type', error_description: 'only client_credentials' });
    }
    const token = `AAIg${randomBytes(32).toString('base64url')}`;
    const now = Date.now();
    this.tokens.set(token, { clientId: client.clientId, expiresAt: now + this.ttlSeconds * 1000 });
    this.sweep(now);
    reply(200, {
      token_type: 'Bearer',
      access_token: token,
      expires_in: this.ttlSeconds,
      consented_on: Math.floor(now / 1000),
      scope: form.get('scope') || 'ncs.read ncs.write',
    });
  }

  /** The client behind a bearer token (401 when missing, unknown or expired). */
  client(req: IncomingMessage): Client {
    const m = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''));
    if (!m?.[1])
      throw new ApiError('unauthorized', 'Call was not signed in.', 'bearer token missing', 'Request an access token.');
    const t = this.tokens.get(m[1]);
    if (!t || t.expiresAt <= Date.now()) {
      throw new ApiError(
        'unauthorized',
        'Call was not signed in.',
        'token unknown or expired',
        'Request a new access token.',
      );
    }
    const client = this.clients.get(t.clientId);
    if (!client) throw new ApiError('unauthorized', 'Call was not signed in.');
    return client;
  }

  /** The tenant of the call: header x-service-tenant (any letter case), released for this client. */
  tenant(req: IncomingMessage, client: Client): string {
    const v = req.headers['x-service-tenant'];
    const tenant = Array.isArray(v) ? v[0] : v;
    if (!tenant) throw new ApiError('invalid_request', 'Header x-service-tenant is required.', 'x-service-tenant');
    if (!client.released.has(tenant)) {
      throw new ApiError('forbidden', 'Access may not perform the action.', 'tenant not released for this access');
    }
    return tenant;
  }

  private sweep(now: number) {
    if (this.tokens.size < 1000) return;
    for (const [k, t] of this.tokens) if (t.expiresAt <= now) this.tokens.delete(k);
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
