// Machine-to-machine tokens from a Clerk/Auth0-like issuer: opaque `m2m_...` tokens for client credentials,
// the token endpoint (client_secret_basic or client_secret_post), bearer verification and tenant release.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, nanoid, readRaw } from './util.ts';

interface Client {
  id: string;
  secret: string;
  tenants: readonly string[];
}

interface Token {
  clientId: string;
  expiresAt: number;
  scope: string;
}

export const TOKEN_PATH = '/api/auth/m2m/token';

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class Auth {
  readonly client: Client;
  readonly knownTenants: readonly string[];
  private readonly tokens = new Map<string, Token>();
  private readonly ttlSeconds: number;

  constructor(ttlSeconds: number, tenants: { released: string[]; foreign: string }) {
    this.ttlSeconds = ttlSeconds;
    this.client = { id: `m2m_client_${nanoid(12)}`, secret: `sk_m2m_${nanoid(32)}`, tenants: tenants.released };
    this.knownTenants = [...tenants.released, tenants.foreign];
  }

  /** POST /api/auth/m2m/token: an OAuth answer (not the service envelope). */
  async tokenEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const reply = (status: number, body: Record<string, unknown>) => {
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        ...(status === 401 ? { 'www-authenticate': 'Basic realm="medlar-m2m"' } : {}),
      });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST') return reply(405, { error: 'invalid_request', error_description: 'POST only' });
    const form = new URLSearchParams(await readRaw(req, 64_000));
    let id = form.get('client_id') ?? undefined;
    let secret = form.get('client_secret') ?? undefined;
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (basic?.[1]) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      if (i > 0) {
        id = decodeURIComponent(decoded.slice(0, i));
        secret = decodeURIComponent(decoded.slice(i + 1));
      }
    }
    if (form.get('grant_type') !== 'client_credentials') {
      return reply(400, {
        error: 'unsupported_grant_type',
        error_description: 'Only client_credentials is supported.',
      });
    }
    if (!id || !secret || !safeEqual(id, this.client.id) || !safeEqual(secret, this.client.secret)) {
      return reply(401, { error: 'invalid_client', error_description: 'Unknown client or wrong secret.' });
    }
    const token = `m2m_${nanoid(32)}`;
    const scope = form.get('scope') ?? 'ncs:read ncs:write';
    this.tokens.set(token, { clientId: id, expiresAt: Date.now() + this.ttlSeconds * 1000, scope });
    reply(200, { access_token: token, token_type: 'Bearer', expires_in: this.ttlSeconds, scope });
  }

  /** RFC 8414 metadata of the issuer. */
  metadata(origin: string): Record<string, unknown> {
    return {
      issuer: origin,
      token_endpoint: `${origin}${TOKEN_PATH}`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    };
  }

  /** The client id behind a bearer token, else 401. */
  verify(authorization: string | undefined): string {
    const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    const fail = (message: string) =>
      new ApiError(401, 'unauthorized', message, 'Request a new access token and check the environment.', {
        'www-authenticate': 'Bearer realm="medlar", error="invalid_token"',
      });
    if (!m?.[1]) throw fail('A bearer token is required.');
    const t = this.tokens.get(m[1]);
    if (!t) throw fail('The access token is not valid.');
    if (t.expiresAt <= Date.now()) {
      this.tokens.delete(m[1]);
      throw fail('The access token has expired.');
    }
    return t.clientId;
  }

  /** The tenant of the x-service-tenant header, released to the client, else 400/403. */
  tenant(clientId: string, header: string | string[] | undefined): string {
    const value = Array.isArray(header) ? header[0] : header;
    if (!value || value.trim() === '') {
      throw new ApiError(400, 'invalid_request', 'Header x-service-tenant is required.', 'Send the tenant identifier.');
    }
    if (clientId !== this.client.id || !this.client.tenants.includes(value)) {
      throw new ApiError(
        403,
        'forbidden',
        'The tenant is not released for this access.',
        'Check the permissions of the access.',
      );
    }
    return value;
  }
}
