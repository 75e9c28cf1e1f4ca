// Keycloak-like realm: the client credentials token endpoint at /realms/almond/protocol/openid-connect/token
// (client_secret_basic or client_secret_post), HS256 JWT access tokens, the bearer check and tenant release.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { forbidden, HttpException, unauthorized, uuid } from './util.ts';

export const REALM_PATH = '/realms/almond';
export const TOKEN_PATH = `${REALM_PATH}/protocol/openid-connect/token`;

export interface Client {
  clientId: string;
  secret: string;
  tenants: string[];
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

export class Realm {
  readonly clients = new Map<string, Client>();
  /** Tenants that exist; a tenant not released to the caller answers 403. */
  readonly tenants = new Set<string>();
  private readonly key = randomBytes(32);
  private readonly ttl: number;
  constructor(ttlSeconds: number) {
    this.ttl = ttlSeconds;
  }

  issuer(req: IncomingMessage): string {
    return `http://${req.headers.host ?? '127.0.0.1'}${REALM_PATH}`;
  }

  private sign(payload: Record<string, unknown>): string {
    const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: 'almond-hs256' }));
    const body = b64url(JSON.stringify(payload));
    const sig = createHmac('sha256', this.key).update(`${head}.${body}`).digest('base64url');
    return `${head}.${body}.${sig}`;
  }

  /** The bearer check (JWTAuthHandler): the client id of a valid, unexpired token. */
  verify(authorization: string | undefined): string {
    const m = /^Bearer\s+([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/i.exec(authorization?.trim() ?? '');
    if (!m) throw unauthorized(authorization ? 'Invalid bearer token' : 'Missing bearer token');
    const [, head, body, sig] = m as unknown as [string, string, string, string];
    const expected = createHmac('sha256', this.key).update(`${head}.${body}`).digest();
    const given = Buffer.from(sig, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw unauthorized('Invalid bearer token');
    let claims: { exp?: number; azp?: string };
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw unauthorized('Invalid bearer token');
    }
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) throw unauthorized('Token expired');
    if (!claims.azp || !this.clients.has(claims.azp)) throw unauthorized('Unknown client');
    return claims.azp;
  }

  /** The tenant check: released to the client, else 403 (an unknown tenant is not released either). */
  release(clientId: string, tenant: string): void {
    const client = this.clients.get(clientId);
    if (!client?.tenants.includes(tenant)) throw forbidden(`Tenant ${tenant} is not released to client ${clientId}`);
  }

  /** POST token endpoint: OAuth error bodies, not the envelope (it is the authorization server's). */
  token(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const form = new URLSearchParams(raw);
    let id = form.get('client_id') ?? undefined;
    let secret = form.get('client_secret') ?? undefined;
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (basic?.[1]) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      id = decodeURIComponent(decoded.slice(0, colon));
      secret = decodeURIComponent(decoded.slice(colon + 1));
    }
    const oauthError = (status: number, error: string, description: string) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ error, error_description: description }));
    };
    if (form.get('grant_type') !== 'client_credentials') {
      oauthError(400, 'unsupported_grant_type', 'Unsupported grant_type');
      return;
    }
    const client = id ? this.clients.get(id) : undefined;
    if (!client || !secret || client.secret !== secret) {
      oauthError(401, 'invalid_client', 'Invalid client or Invalid client credentials');
      return;
    }
    const now = Math.floor(Date.now() / 1000);
    const scope = 'connections:read connections:write webhooks audit';
    const token = this.sign({
      exp: now + this.ttl,
      iat: now,
      jti: uuid(),
      iss: this.issuer(req),
      sub: `service-account-${client.clientId}`,
      typ: 'Bearer',
      azp: client.clientId,
      scope,
    });
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
    res.end(
      JSON.stringify({
        access_token: token,
        expires_in: this.ttl,
        refresh_expires_in: 0,
        token_type: 'Bearer',
        'not-before-policy': 0,
        scope,
      }),
    );
  }

  /** The realm's OpenID configuration (Keycloak publishes it; it names the token endpoint). */
  metadata(req: IncomingMessage): Record<string, unknown> {
    const issuer = this.issuer(req);
    return {
      issuer,
      token_endpoint: `${issuer}/protocol/openid-connect/token`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    };
  }
}

export function missingTenant(): HttpException {
  return new HttpException(
    400,
    'invalid_request',
    'Bad Request',
    'Missing required header: x-service-tenant',
    'Send the tenant identifier in x-service-tenant',
  );
}
