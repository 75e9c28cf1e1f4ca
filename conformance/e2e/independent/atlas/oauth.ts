// Atlas authorization server: OAuth 2.1 client credentials only, opaque tokens, 10-minute lifetime.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Keycloak-style realm paths on the authorization server's own listener (its own origin). */
export const REALM_PATH = '/realms/atlas';
export const TOKEN_PATH = `${REALM_PATH}/protocol/openid-connect/token`;
/** RFC 8414 section 3: the well-known segment inserted before the issuer's path. */
export const METADATA_PATH = `/.well-known/oauth-authorization-server${REALM_PATH}`;
export type AuthEndpoints = { issuer: string; tokenEndpoint: string; metadata: string };
/** Keycloak's default access-token lifespan; startAtlas may shorten it. */
export const TOKEN_LIFETIME_S = 300;
export const ALL_SCOPES = ['catalog:read', 'connections:read', 'connections:write', 'webhooks:manage', 'audit:read'];

export type OAuthClient = {
  clientId: string;
  secret: string;
  tenants: string[];
  scopes: string[];
  purpose: string;
  owner: string;
  expiresAt: string;
};
export type Access = { token: string; clientId: string; scopes: string[]; expiresAtMs: number; environment: string };

export type AuthServer = {
  clients: OAuthClient[];
  handle(req: IncomingMessage, res: ServerResponse, path: string, origin: string): Promise<boolean>;
  lookup(token: string): Access | undefined;
};

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    'Content-Type': 'application/json;charset=UTF-8',
    'Cache-Control': 'no-store',
    Pragma: 'no-cache',
    ...extra,
  });
  res.end(JSON.stringify(body));
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 16384) break;
    chunks.push(c as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export function createAuthServer(clients: OAuthClient[], lifetimeS = TOKEN_LIFETIME_S): AuthServer {
  const tokens = new Map<string, Access>();

  function authenticate(req: IncomingMessage, form: URLSearchParams): OAuthClient | undefined {
    let id = form.get('client_id') ?? undefined;
    let secret = form.get('client_secret') ?? undefined;
    const basic = /^Basic\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
    if (basic?.[1] !== undefined) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      if (i < 0) return undefined;
      id = decodeURIComponent(decoded.slice(0, i));
      secret = decodeURIComponent(decoded.slice(i + 1));
    }
    const client = clients.find((c) => c.clientId === id);
    if (client === undefined || secret === undefined || !safeEqual(client.secret, secret)) return undefined;
    return client;
  }

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (
      !String(req.headers['content-type'] ?? '')
        .toLowerCase()
        .startsWith('application/x-www-form-urlencoded')
    ) {
      oauthJson(res, 400, { error: 'invalid_request', error_description: 'form encoding required' });
      return;
    }
    const form = await readForm(req);
    const client = authenticate(req, form);
    if (client === undefined) {
      oauthJson(
        res,
        401,
        { error: 'invalid_client', error_description: 'client authentication failed' },
        { 'WWW-Authenticate': 'Basic realm="atlas"' },
      );
      return;
    }
    if (form.get('grant_type') !== 'client_credentials') {
      oauthJson(res, 400, { error: 'unsupported_grant_type' });
      return;
    }
    const asked = (form.get('scope') ?? '').split(' ').filter((s) => s !== '');
    if (asked.some((s) => !client.scopes.includes(s))) {
      oauthJson(res, 400, { error: 'invalid_scope' });
      return;
    }
    const scopes = asked.length > 0 ? asked : client.scopes;
    const value = `atl.${randomBytes(32).toString('base64url')}`;
    tokens.set(value, {
      token: value,
      clientId: client.clientId,
      scopes,
      expiresAtMs: Date.now() + lifetimeS * 1000,
      environment: 'sandbox',
    });
    oauthJson(res, 200, {
      access_token: value,
      token_type: 'Bearer',
      expires_in: lifetimeS,
      scope: scopes.join(' '),
    });
  }

  return {
    clients,
    async handle(req, res, path, origin) {
      if (path === METADATA_PATH && req.method === 'GET') {
        oauthJson(res, 200, {
          issuer: `${origin}${REALM_PATH}`,
          token_endpoint: `${origin}${TOKEN_PATH}`,
          grant_types_supported: ['client_credentials'],
          token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
          scopes_supported: ALL_SCOPES,
          response_types_supported: [],
        });
        return true;
      }
      if (path === TOKEN_PATH) {
        if (req.method !== 'POST') {
          oauthJson(res, 405, { error: 'invalid_request', error_description: 'POST only' }, { Allow: 'POST' });
          return true;
        }
        await token(req, res);
        return true;
      }
      return false;
    },
    lookup(value) {
      const a = tokens.get(value);
      if (a === undefined) return undefined;
      if (a.expiresAtMs <= Date.now()) {
        tokens.delete(value);
        return undefined;
      }
      return a;
    },
  };
}
