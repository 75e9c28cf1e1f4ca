// OAuth 2.1 client credentials in the Keycloak shape (a realm's openid-connect token endpoint), opaque
// bearer tokens of 300 s, and the tenant check: released tenants per client, an existing tenant the client
// is not released for answered 403, like a namespace the service account has no RoleBinding in.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './http-kit.ts';

export const TOKEN_PATH = '/realms/chestnut/protocol/openid-connect/token';
export const OIDC_CONFIG_PATH = '/realms/chestnut/.well-known/openid-configuration';

export interface Client {
  id: string;
  secret: string;
  tenants: string[];
  purpose: string;
  owner: string;
  expiresAt: string;
}

export interface Grant {
  clientId: string;
  expiresAt: number;
}

export class Authority {
  readonly clients: Client[];
  readonly tenants: string[];
  readonly tokenTtlSeconds: number;
  private readonly tokens = new Map<string, Grant>();

  constructor(clients: Client[], tenants: string[], tokenTtlSeconds: number) {
    this.clients = clients;
    this.tenants = tenants;
    this.tokenTtlSeconds = tokenTtlSeconds;
  }

  /** Bearer token → grant; anything else is 401 (no hint whether the token existed). */
  authenticate(req: IncomingMessage): Grant {
    const h = String(req.headers.authorization ?? '');
    const m = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(h);
    const grant = m?.[1] === undefined ? undefined : this.tokens.get(m[1]);
    if (grant === undefined || grant.expiresAt <= Date.now()) {
      throw new ApiError(
        'unauthorized',
        'call was not signed in',
        'a valid bearer token is required',
        'request a new access token',
      );
    }
    return grant;
  }

  /** The tenant header: missing → 400, unknown or not released → 403 (existence is not revealed). */
  tenantFor(req: IncomingMessage, grant: Grant, missing: 'invalid' | 'forbidden' = 'invalid'): string {
    const t = req.headers['x-service-tenant'];
    if (typeof t !== 'string' || t.trim() === '') {
      if (missing === 'forbidden')
        throw new ApiError('forbidden', 'access may not perform the action', 'no tenant named: send x-service-tenant');
      throw new ApiError('invalid_request', 'tenant header missing', 'send the header x-service-tenant');
    }
    const client = this.clients.find((c) => c.id === grant.clientId);
    if (client === undefined || !client.tenants.includes(t)) {
      throw new ApiError(
        'forbidden',
        'access may not perform the action',
        'the access is not released for this tenant',
      );
    }
    return t;
  }

  client(id: string): Client | undefined {
    return this.clients.find((c) => c.id === id);
  }

  /** POST token endpoint: client_secret_basic or client_secret_post, grant_type client_credentials only. */
  async tokenEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST') return reply(405, { error: 'invalid_request', error_description: 'use POST' });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    let id = form.get('client_id') ?? '';
    let secret = form.get('client_secret') ?? '';
    const basic = /^Basic (.+)$/i.exec(String(req.headers.authorization ?? ''));
    if (basic?.[1] !== undefined) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      id = decodeURIComponent(decoded.slice(0, i));
      secret = decodeURIComponent(decoded.slice(i + 1));
    }
    if (form.get('grant_type') !== 'client_credentials') {
      return reply(400, { error: 'unsupported_grant_type', error_description: 'only client_credentials' });
    }
    const client = this.clients.find((c) => c.id === id);
    const ok = client !== undefined && safeEqual(client.secret, secret);
    if (client === undefined || !ok)
      return reply(401, { error: 'invalid_client', error_description: 'client authentication failed' });
    const token = randomBytes(32).toString('base64url');
    this.tokens.set(token, { clientId: client.id, expiresAt: Date.now() + this.tokenTtlSeconds * 1000 });
    reply(200, {
      access_token: token,
      token_type: 'Bearer',
      expires_in: this.tokenTtlSeconds,
      scope: form.get('scope') ?? 'connections',
    });
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
