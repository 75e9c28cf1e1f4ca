// OAuth 2.1 client-credentials authorization server of birch (POST /oauth/token, form-encoded,
// client_secret_basic or client_secret_post) and the bearer check of the API. Opaque tokens, 15 minutes.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, readRaw } from './http-util.ts';

export const TOKEN_PATH = '/oauth/token';
export const TOKEN_TTL_SECONDS = 900;
export const ALL_SCOPES = ['catalog:read', 'connections:write', 'webhooks:manage', 'audit:read'];

export type Client = { clientId: string; secret: string; tenants: string[] };
export type Token = { value: string; clientId: string; scopes: string[]; expiresAt: number; tenants: string[] };

export class AuthServer {
  clients = new Map<string, Client>();
  tokens = new Map<string, Token>();
  ttlSeconds: number;
  constructor(ttlSeconds = TOKEN_TTL_SECONDS) {
    this.ttlSeconds = ttlSeconds;
  }

  addClient(client: Client): void {
    this.clients.set(client.clientId, client);
  }

  // RFC 6749 section 5.2 error bodies; this endpoint is not part of the envelope interface.
  async handleToken(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'cache-control': 'no-store',
        pragma: 'no-cache',
        ...headers,
      });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST')
      return send(405, { error: 'invalid_request', error_description: 'use POST' }, { allow: 'POST' });
    let form: URLSearchParams;
    try {
      const raw = (await readRaw(req)).toString('utf8');
      const type = String(req.headers['content-type'] ?? '');
      form = type.includes('application/json')
        ? new URLSearchParams(JSON.parse(raw) as Record<string, string>)
        : new URLSearchParams(raw);
    } catch {
      return send(400, { error: 'invalid_request', error_description: 'unreadable body' });
    }
    let clientId = form.get('client_id') ?? '';
    let secret = form.get('client_secret') ?? '';
    const basic = /^Basic\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
    if (basic?.[1]) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      clientId = decodeURIComponent(decoded.slice(0, i));
      secret = decodeURIComponent(decoded.slice(i + 1));
    }
    const client = this.clients.get(clientId);
    if (!client || !safeEqual(client.secret, secret)) {
      return send(
        401,
        { error: 'invalid_client', error_description: 'client authentication failed' },
        { 'www-authenticate': 'Basic realm="birch"' },
      );
    }
    if (form.get('grant_type') !== 'client_credentials') return send(400, { error: 'unsupported_grant_type' });
    const asked = (form.get('scope') ?? '').split(/\s+/).filter(Boolean);
    if (asked.some((s) => !ALL_SCOPES.includes(s))) return send(400, { error: 'invalid_scope' });
    const scopes = asked.length > 0 ? asked : ALL_SCOPES;
    const value = `birch_at_${randomBytes(24).toString('hex')}`;
    this.tokens.set(value, {
      value,
      clientId,
      scopes,
      expiresAt: Date.now() + this.ttlSeconds * 1000,
      tenants: client.tenants,
    });
    send(200, { access_token: value, token_type: 'Bearer', expires_in: this.ttlSeconds, scope: scopes.join(' ') });
  }

  // Returns the token of the request or throws 401 unauthorized.
  authenticate(req: IncomingMessage): Token {
    const header = String(req.headers.authorization ?? '');
    const m = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(header);
    const challenge = { 'www-authenticate': 'Bearer realm="birch"' };
    if (!m?.[1])
      throw new HttpError(401, 'unauthorized', 'A bearer token is required.', {
        hint: 'Request an access token at the token endpoint.',
        headers: challenge,
      });
    const token = this.tokens.get(m[1]);
    if (!token || token.expiresAt <= Date.now()) {
      if (token) this.tokens.delete(m[1]);
      throw new HttpError(401, 'unauthorized', 'The access token is invalid or expired.', {
        hint: 'Request a new access token; check the environment.',
        headers: { 'www-authenticate': 'Bearer realm="birch", error="invalid_token"' },
      });
    }
    return token;
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function requireScope(token: Token, scope: string): void {
  if (!token.scopes.includes(scope)) {
    throw new HttpError(403, 'forbidden', 'The access may not perform this action.', {
      detail: `missing scope ${scope}`,
      hint: 'Check the permissions of the access.',
    });
  }
}
