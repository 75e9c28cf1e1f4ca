// The authorization server (Duende IdentityServer-like: POST /connect/token, OpenID discovery document)
// and the bearer check of the API. Tokens are opaque reference tokens kept in memory.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from './http-util.ts';

export interface AuthConfig {
  clientId: string;
  clientSecret: string;
  /** Tenants the client is released for. */
  tenants: string[];
  /** Tenants that exist but are not released for the client (403). */
  knownTenants: string[];
  tokenTtlSec: number;
}

export interface Principal {
  clientId: string;
  expiresAt: number;
}

export function createAuth(config: AuthConfig) {
  const tokens = new Map<string, Principal>();

  function secretMatches(given: string): boolean {
    const a = Buffer.from(given);
    const b = Buffer.from(config.clientSecret);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  function tokenError(res: ServerResponse, status: number, error: string, description: string): void {
    const text = JSON.stringify({ error, error_description: description });
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      pragma: 'no-cache',
    });
    res.end(text);
  }

  /** POST /connect/token: client_credentials with client_secret_basic or client_secret_post. */
  async function tokenEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = new URLSearchParams((await readBody(req)) ?? '');
    let id = form.get('client_id') ?? '';
    let secret = form.get('client_secret') ?? '';
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (basic?.[1]) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      id = decodeURIComponent(decoded.slice(0, colon));
      secret = decodeURIComponent(decoded.slice(colon + 1));
    }
    if (id !== config.clientId || !secretMatches(secret)) {
      tokenError(res, 401, 'invalid_client', 'Client authentication failed.');
      return;
    }
    if (form.get('grant_type') !== 'client_credentials') {
      tokenError(res, 400, 'unsupported_grant_type', 'Only client_credentials is enabled for this client.');
      return;
    }
    const token = randomBytes(32).toString('base64url');
    tokens.set(token, { clientId: id, expiresAt: Date.now() + config.tokenTtlSec * 1000 });
    const body = JSON.stringify({
      access_token: token,
      token_type: 'Bearer',
      expires_in: config.tokenTtlSec,
      scope: 'ncs.api',
    });
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      pragma: 'no-cache',
    });
    res.end(body);
  }

  /** OpenID Provider metadata (IdentityServer publishes this, not RFC 8414's document). */
  function discovery(origin: string) {
    return {
      issuer: origin,
      token_endpoint: `${origin}/connect/token`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      scopes_supported: ['ncs.api'],
    };
  }

  /** The principal of a bearer token, or undefined when missing, unknown or expired. */
  function authenticate(header: string | undefined): Principal | undefined {
    const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
    if (!m?.[1]) return undefined;
    const p = tokens.get(m[1]);
    if (!p) return undefined;
    if (p.expiresAt <= Date.now()) {
      tokens.delete(m[1]);
      return undefined;
    }
    return p;
  }

  function tenantStatus(tenant: string): 'released' | 'forbidden' {
    return config.tenants.includes(tenant) ? 'released' : 'forbidden';
  }

  return { tokenEndpoint, discovery, authenticate, tenantStatus };
}

export type Auth = ReturnType<typeof createAuth>;
