// The authorization server, django-oauth-toolkit style: POST /o/token/ (client credentials, client
// authentication by HTTP Basic or in the form), opaque 30-character tokens, RFC 8414 metadata.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fail } from './core.ts';

export const TOKEN_PATH = '/o/token/';

export interface Client {
  id: string;
  secret: string;
  tenants: string[];
}

export interface TokenInfo {
  clientId: string;
  expiresAt: number;
}

export class OAuth {
  clients: Client[];
  tokens = new Map<string, TokenInfo>();
  ttl: number;

  constructor(clients: Client[], ttlSeconds: number) {
    this.clients = clients;
    this.ttl = ttlSeconds;
  }

  /** The client a bearer token belongs to; 401 when missing, unknown or expired. */
  authenticate(header: string | undefined): Client {
    const m = /^bearer\s+(\S+)\s*$/i.exec(header ?? '');
    if (!m?.[1]) fail('unauthorized', 'Authentication credentials were not provided.');
    const info = this.tokens.get(m[1]);
    if (!info || info.expiresAt <= Date.now()) fail('unauthorized', 'Invalid or expired access token.');
    const client = this.clients.find((c) => c.id === info.clientId);
    if (!client) fail('unauthorized', 'Invalid or expired access token.');
    return client;
  }

  async tokenEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const reply = (status: number, body: unknown, extra: Record<string, string> = {}) => {
      res.writeHead(status, {
        'Content-Type': 'application/json',
        'Cache-Control': 'no-store',
        Pragma: 'no-cache',
        ...extra,
      });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST')
      return reply(405, { error: 'invalid_request', error_description: 'Use POST.' }, { Allow: 'POST' });
    let text = '';
    for await (const c of req) text += c;
    const form = new URLSearchParams(text);
    let id = form.get('client_id') ?? '';
    let secret = form.get('client_secret') ?? '';
    const basic = /^basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    if (basic?.[1]) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const at = decoded.indexOf(':');
      id = decodeURIComponent(decoded.slice(0, at));
      secret = decodeURIComponent(decoded.slice(at + 1));
    }
    if (form.get('grant_type') !== 'client_credentials') {
      return reply(400, {
        error: 'unsupported_grant_type',
        error_description: 'Only client_credentials is offered here.',
      });
    }
    const client = this.clients.find((c) => c.id === id && c.secret === secret);
    if (!client)
      return reply(
        401,
        { error: 'invalid_client', error_description: 'Client authentication failed.' },
        { 'WWW-Authenticate': 'Basic realm="walnut"' },
      );
    const token = randomBytes(22).toString('base64url').slice(0, 30);
    this.tokens.set(token, { clientId: client.id, expiresAt: Date.now() + this.ttl * 1000 });
    reply(200, { access_token: token, token_type: 'Bearer', expires_in: this.ttl, scope: 'read write' });
  }

  metadata(origin: string) {
    return {
      issuer: origin,
      token_endpoint: `${origin}${TOKEN_PATH}`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      scopes_supported: ['read', 'write'],
      response_types_supported: ['token'],
    };
  }
}
