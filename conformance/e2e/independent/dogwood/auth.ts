// The external IdP (Okta-style authorization server "default") and the Nest guards behind Kong.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { State } from './state.ts';
import { ApiError, type Ctx, sendJson } from './util.ts';

export const TOKEN_PATH = '/oauth2/default/v1/token';
export const METADATA_PATH = '/.well-known/oauth-authorization-server/oauth2/default';

export interface Client {
  id: string;
  secret: string;
  tenants: string[];
}

interface Token {
  clientId: string;
  expiresAt: number;
  scope: string;
}

/** Tenants that exist; only those in a client's list are released for it. */
export const TENANTS = ['acme-roastery', 'acme-bakery', 'globex-diner'];

export class Auth {
  clients: Client[];
  tokens = new Map<string, Token>();
  state: State;
  constructor(state: State, clients: Client[]) {
    this.state = state;
    this.clients = clients;
  }

  private findClient(id: string, secret: string): Client | undefined {
    const c = this.clients.find((x) => x.id === id);
    if (!c) return undefined;
    const a = Buffer.from(secret);
    const b = Buffer.from(c.secret);
    return a.length === b.length && timingSafeEqual(a, b) ? c : undefined;
  }

  /** RFC 6749 client credentials; client_secret_basic or client_secret_post. */
  async token(req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> {
    const form = new URLSearchParams(raw);
    let id = form.get('client_id') ?? '';
    let secret = form.get('client_secret') ?? '';
    const basic = /^Basic\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
    if (basic?.[1]) {
      const [u, p] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
      id = decodeURIComponent(u ?? '');
      secret = decodeURIComponent(p ?? '');
    }
    const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };
    if (form.get('grant_type') !== 'client_credentials') {
      sendJson(res, 400, { error: 'unsupported_grant_type', error_description: 'only client_credentials' }, noStore);
      return;
    }
    const client = this.findClient(id, secret);
    if (!client) {
      sendJson(
        res,
        401,
        { error: 'invalid_client', error_description: 'client authentication failed' },
        {
          ...noStore,
          'www-authenticate': 'Basic realm="default"',
        },
      );
      return;
    }
    const accessToken = randomBytes(24).toString('base64url');
    const ttl = this.state.opts.tokenTtlSec;
    const scope = form.get('scope') ?? 'connections:read connections:write webhooks:manage audit:read';
    this.tokens.set(accessToken, { clientId: client.id, expiresAt: Date.now() + ttl * 1000, scope });
    sendJson(res, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: ttl, scope }, noStore);
  }

  metadata(origin: string): Record<string, unknown> {
    return {
      issuer: `${origin}/oauth2/default`,
      token_endpoint: `${origin}${TOKEN_PATH}`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      response_types_supported: ['token'],
    };
  }

  /** AuthGuard then TenantGuard: 401 without a live token, 403 for a tenant not released (or missing). */
  guard(ctx: Ctx): void {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(String(ctx.req.headers.authorization ?? ''));
    const tok = m?.[1] ? this.tokens.get(m[1]) : undefined;
    if (!tok || tok.expiresAt <= Date.now()) {
      if (tok && m?.[1]) this.tokens.delete(m[1]);
      const e = new ApiError(
        401,
        'unauthorized',
        'Call was not signed in',
        tok ? 'access token expired' : 'bearer token missing or unknown',
        'Request a new access token, check the environment',
      );
      e.headers = { 'www-authenticate': 'Bearer realm="api", error="invalid_token"' };
      throw e;
    }
    ctx.clientId = tok.clientId;
    const tenant = ctx.req.headers['x-service-tenant'];
    if (typeof tenant !== 'string' || tenant.trim() === '') {
      throw new ApiError(
        403,
        'forbidden',
        'Access may not perform the action',
        'header x-service-tenant missing',
        'Send the tenant identifier in x-service-tenant',
      );
    }
    const client = this.clients.find((c) => c.id === tok.clientId);
    if (!client?.tenants.includes(tenant)) {
      throw new ApiError(
        403,
        'forbidden',
        'Access may not perform the action',
        'tenant not released for this access',
        'Check the permissions of the access',
      );
    }
    ctx.tenant = tenant;
  }

  expiresAt(ctx: Ctx): string | null {
    const m = /^Bearer\s+(\S+)/i.exec(String(ctx.req.headers.authorization ?? ''));
    const t = m?.[1] ? this.tokens.get(m[1]) : undefined;
    return t ? new Date(t.expiresAt).toISOString() : null;
  }
}
