// maple's authorization server: its own loopback origin, client credentials with client_secret_basic
// only, HS256 JWT-looking access tokens of 600 s, RFC 8414 metadata at the token origin.
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const TOKEN_PATH = '/oauth2/token';
export const TOKEN_LIFETIME_S = 600;

export interface Client {
  clientId: string;
  clientSecret: string;
  tenants: string[];
}

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

export class Authority {
  key = randomBytes(32);
  clients: Client[];
  origin = '';
  constructor(clients: Client[]) {
    this.clients = clients;
  }

  sign(clientId: string) {
    const now = Math.floor(Date.now() / 1000);
    const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ iss: this.origin, sub: clientId, aud: 'maple-public-api', iat: now, exp: now + TOKEN_LIFETIME_S, jti: randomUUID(), scope: 'connections' })}`;
    return `${head}.${createHmac('sha256', this.key).update(head).digest('base64url')}`;
  }

  /** The client a bearer token was issued to, or undefined (malformed, forged or expired). */
  verify(authorization: string | undefined): Client | undefined {
    const m = /^Bearer ([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
    if (!m) return undefined;
    const expected = createHmac('sha256', this.key).update(`${m[1]}.${m[2]}`).digest();
    const given = Buffer.from(m[3] ?? '', 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(m[2] ?? '', 'base64url').toString('utf8')) as { sub: string; exp: number };
      if (claims.exp * 1000 <= Date.now()) return undefined;
      return this.clients.find((c) => c.clientId === claims.sub);
    } catch {
      return undefined;
    }
  }

  private checkBasic(header: string | undefined): Client | undefined {
    const m = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
    if (!m) return undefined;
    const text = Buffer.from(m[1] ?? '', 'base64').toString('utf8');
    const at = text.indexOf(':');
    if (at < 0) return undefined;
    const id = decodeURIComponent(text.slice(0, at));
    const secret = decodeURIComponent(text.slice(at + 1));
    const client = this.clients.find((c) => c.clientId === id);
    if (!client) return undefined;
    const a = Buffer.from(secret);
    const b = Buffer.from(client.clientSecret);
    return a.length === b.length && timingSafeEqual(a, b) ? client : undefined;
  }

  async handle(req: IncomingMessage, res: ServerResponse) {
    const send = (status: number, body: unknown, extra: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'cache-control': 'no-store',
        server: 'envoy',
        connection: 'close',
        ...extra,
      });
      res.end(JSON.stringify(body));
    };
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'GET' && path === '/.well-known/oauth-authorization-server') {
      return send(200, {
        issuer: this.origin,
        token_endpoint: `${this.origin}${TOKEN_PATH}`,
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
        response_types_supported: [],
        scopes_supported: ['connections'],
      });
    }
    if (path !== TOKEN_PATH || req.method !== 'POST') return send(404, { error: 'not_found' });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const client = this.checkBasic(req.headers.authorization);
    if (!client) {
      return send(
        401,
        { error: 'invalid_client', error_description: 'client_secret_basic required' },
        {
          'www-authenticate': 'Basic realm="maple"',
        },
      );
    }
    if (form.get('grant_type') !== 'client_credentials') {
      return send(400, { error: 'unsupported_grant_type' });
    }
    return send(200, {
      access_token: this.sign(client.clientId),
      token_type: 'Bearer',
      expires_in: TOKEN_LIFETIME_S,
      scope: 'connections',
    });
  }
}
