// The hand-rolled authorization server: client credentials (client_secret_basic or _post), opaque tokens
// kept server-side, RFC 7662 introspection (the API side calls introspect() like Play's auth filter calls
// the introspection endpoint), RFC 7009 revocation and RFC 8414 metadata.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readRaw } from './http-kit.ts';
import type { Store } from './store.ts';

export const SCOPES = ['catalog:read', 'connections:read', 'connections:write', 'webhooks:manage', 'audit:read'];

interface TokenRow {
  clientId: string;
  scopes: string[];
  expiresAt: number;
}

export interface Introspection {
  active: boolean;
  clientId?: string;
  scopes?: string[];
  exp?: number;
}

export interface OAuthServer {
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean>;
  introspect(token: string): Introspection;
}

const digest = (s: string): string => createHash('sha256').update(s).digest('hex');

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(digest(a));
  const y = Buffer.from(digest(b));
  return timingSafeEqual(x, y);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    pragma: 'no-cache',
    ...headers,
  });
  res.end(JSON.stringify(body));
}

export function createOAuth(store: Store, issuer: () => string): OAuthServer {
  // Tokens are stored by their SHA-256 only, like a tokens table that never holds the bearer value.
  const tokens = new Map<string, TokenRow>();

  function authenticateClient(req: IncomingMessage, form: URLSearchParams): string | undefined {
    let id = form.get('client_id') ?? undefined;
    let secret = form.get('client_secret') ?? undefined;
    const auth = req.headers.authorization;
    if (auth?.toLowerCase().startsWith('basic ')) {
      const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      if (i < 0) return undefined;
      id = decodeURIComponent(decoded.slice(0, i));
      secret = decodeURIComponent(decoded.slice(i + 1));
    }
    if (!id || !secret) return undefined;
    const client = store.clients.get(id);
    return client && sameSecret(client.secret, secret) ? client.id : undefined;
  }

  function metadata(): Record<string, unknown> {
    const iss = issuer();
    return {
      issuer: iss,
      token_endpoint: `${iss}/oauth2/token`,
      introspection_endpoint: `${iss}/oauth2/introspect`,
      revocation_endpoint: `${iss}/oauth2/revoke`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      introspection_endpoint_auth_methods_supported: ['client_secret_basic'],
      scopes_supported: SCOPES,
      response_types_supported: [],
    };
  }

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await readRaw(req));
    const clientId = authenticateClient(req, form);
    if (!clientId) {
      send(
        res,
        401,
        { error: 'invalid_client', error_description: 'client authentication failed' },
        { 'www-authenticate': 'Basic realm="tamarack"' },
      );
      return;
    }
    if (form.get('grant_type') !== 'client_credentials') {
      send(res, 400, { error: 'unsupported_grant_type', error_description: 'only client_credentials is offered here' });
      return;
    }
    const client = store.clients.get(clientId);
    const asked = (form.get('scope') ?? '').split(' ').filter(Boolean);
    const granted = asked.length > 0 ? asked : (client?.scopes ?? []);
    if (granted.some((s) => !client?.scopes.includes(s))) {
      send(res, 400, { error: 'invalid_scope', error_description: 'a requested scope is not granted to this client' });
      return;
    }
    const value = `tmk_at_${randomBytes(32).toString('base64url')}`;
    const ttl = store.options.tokenTtlSec;
    tokens.set(digest(value), { clientId, scopes: granted, expiresAt: Date.now() + ttl * 1000 });
    send(res, 200, { access_token: value, token_type: 'Bearer', expires_in: ttl, scope: granted.join(' ') });
  }

  function introspect(value: string): Introspection {
    const row = tokens.get(digest(value));
    if (!row || row.expiresAt <= Date.now()) return { active: false };
    return { active: true, clientId: row.clientId, scopes: row.scopes, exp: Math.floor(row.expiresAt / 1000) };
  }

  async function introspectEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await readRaw(req));
    if (!authenticateClient(req, form)) {
      send(res, 401, { error: 'invalid_client' }, { 'www-authenticate': 'Basic realm="tamarack"' });
      return;
    }
    const r = introspect(form.get('token') ?? '');
    send(
      res,
      200,
      r.active
        ? { active: true, client_id: r.clientId, scope: r.scopes?.join(' '), exp: r.exp, token_type: 'Bearer' }
        : { active: false },
    );
  }

  async function revoke(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await readRaw(req));
    const clientId = authenticateClient(req, form);
    if (!clientId) {
      send(res, 401, { error: 'invalid_client' }, { 'www-authenticate': 'Basic realm="tamarack"' });
      return;
    }
    const key = digest(form.get('token') ?? '');
    if (tokens.get(key)?.clientId === clientId) tokens.delete(key);
    res.writeHead(200, { 'cache-control': 'no-store' });
    res.end();
  }

  return {
    introspect,
    async handle(req, res, path) {
      if (req.method === 'GET' && path === '/.well-known/oauth-authorization-server') {
        send(res, 200, metadata());
        return true;
      }
      if (req.method !== 'POST') return false;
      if (path === '/oauth2/token') await token(req, res);
      else if (path === '/oauth2/introspect') await introspectEndpoint(req, res);
      else if (path === '/oauth2/revoke') await revoke(req, res);
      else return false;
      return true;
    },
  };
}
