// The authorization server in front of the Worker (Cloudflare Access style): client credentials only, opaque
// bearer tokens kept in memory (a KV namespace with a TTL in production). RFC 8414 metadata says where it is.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BODY_BYTES } from './http-kit.ts';

export const TOKEN_PATH = '/auth/oauth2/token';
export const METADATA_PATH = '/.well-known/oauth-authorization-server';

export interface Client {
  id: string;
  secretHash: string;
  tenants: string[];
  purpose: string;
  owner: string;
}
interface Token {
  clientId: string;
  expiresAt: number;
}

const hash = (s: string): string => createHash('sha256').update(s).digest('hex');

export class AuthServer {
  clients = new Map<string, Client>();
  tokens = new Map<string, Token>();
  tokenTtlSeconds: number;
  constructor(tokenTtlSeconds: number) {
    this.tokenTtlSeconds = tokenTtlSeconds;
  }

  addClient(id: string, secret: string, tenants: string[]): void {
    this.clients.set(id, {
      id,
      secretHash: hash(secret),
      tenants,
      purpose: 'conformance',
      owner: 'platform-team@willow.example',
    });
  }

  /** The client of a valid bearer token, or undefined (missing, unknown, expired). */
  verify(authorization: string | undefined): { client: Client; expiresAt: number } | undefined {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    const raw = m?.[1];
    if (raw === undefined) return undefined;
    const t = this.tokens.get(hash(raw));
    if (t === undefined) return undefined;
    if (t.expiresAt <= Date.now()) {
      this.tokens.delete(hash(raw));
      return undefined;
    }
    const client = this.clients.get(t.clientId);
    return client === undefined ? undefined : { client, expiresAt: t.expiresAt };
  }

  metadata(origin: string): Record<string, unknown> {
    return {
      issuer: origin,
      token_endpoint: `${origin}${TOKEN_PATH}`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      response_types_supported: [],
    };
  }

  async handleToken(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const reply = (status: number, body: Record<string, unknown>): void => {
      res.statusCode = status;
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.setHeader('cache-control', 'no-store');
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST') return reply(405, { error: 'invalid_request', error_description: 'POST only' });
    let text = '';
    for await (const chunk of req) {
      text += (chunk as Buffer).toString('utf8');
      if (text.length > MAX_BODY_BYTES) return reply(400, { error: 'invalid_request' });
    }
    const form = new URLSearchParams(text);
    let id = form.get('client_id') ?? undefined;
    let secret = form.get('client_secret') ?? undefined;
    const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (basic !== undefined) {
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      if (i > 0) {
        id = decodeURIComponent(decoded.slice(0, i));
        secret = decodeURIComponent(decoded.slice(i + 1));
      }
    }
    if (form.get('grant_type') !== 'client_credentials') return reply(400, { error: 'unsupported_grant_type' });
    const client = id === undefined ? undefined : this.clients.get(id);
    const given = Buffer.from(hash(secret ?? ''), 'hex');
    if (client === undefined || !timingSafeEqual(given, Buffer.from(client.secretHash, 'hex'))) {
      res.setHeader('www-authenticate', 'Basic realm="willow"');
      return reply(401, { error: 'invalid_client' });
    }
    const token = `wlw_at_${randomBytes(24).toString('base64url')}`;
    this.tokens.set(hash(token), { clientId: client.id, expiresAt: Date.now() + this.tokenTtlSeconds * 1000 });
    reply(200, {
      access_token: token,
      token_type: 'Bearer',
      expires_in: this.tokenTtlSeconds,
      scope: 'connections catalog webhooks audit',
    });
  }
}
