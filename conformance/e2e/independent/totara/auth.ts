// totara: the OAuth client credentials endpoint (`POST /oauth2/token`) and @fastify/jwt's habits: HS256 access
// tokens, short-lived, verified on every authenticated route; then the tenant header against the client's release.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpError, type Principal } from './types.ts';
import { header } from './util.ts';

export const TOKEN_PATH = '/oauth2/token';

export interface Client {
  clientId: string;
  clientSecret: string;
  tenants: string[];
  scope: string;
}

const b64url = (v: Buffer | string) => Buffer.from(v).toString('base64url');

export class Auth {
  private readonly key = randomBytes(32);
  readonly clients = new Map<string, Client>();
  /** Every tenant that exists, released to some client or not. */
  readonly tenants = new Set<string>();

  private readonly ttlSeconds: number;

  constructor(ttlSeconds: number) {
    this.ttlSeconds = ttlSeconds;
  }

  sign(clientId: string, scope: string): string {
    const iat = Math.floor(Date.now() / 1000);
    const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const payload = b64url(
      JSON.stringify({ sub: clientId, scope, iat, exp: iat + this.ttlSeconds, jti: randomBytes(8).toString('hex') }),
    );
    const sig = createHmac('sha256', this.key).update(`${head}.${payload}`).digest('base64url');
    return `${head}.${payload}.${sig}`;
  }

  /** @fastify/jwt's `request.jwtVerify()`: 401 with its messages. */
  verify(req: IncomingMessage): string {
    const auth = header(req, 'authorization');
    if (!auth)
      throw unauthorized('No Authorization was found in request.headers', 'FST_JWT_NO_AUTHORIZATION_IN_HEADER');
    const match = /^Bearer\s+(\S+)$/i.exec(auth.trim());
    if (!match?.[1]) throw unauthorized('Format is Authorization: Bearer [token]', 'FST_JWT_BAD_REQUEST');
    const [head, payload, sig] = match[1].split('.');
    if (!head || !payload || !sig)
      throw unauthorized('Authorization token is invalid', 'FST_JWT_AUTHORIZATION_TOKEN_INVALID');
    const expected = createHmac('sha256', this.key).update(`${head}.${payload}`).digest();
    const given = Buffer.from(sig, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw unauthorized('Authorization token is invalid', 'FST_JWT_AUTHORIZATION_TOKEN_INVALID');
    let claims: { sub?: string; exp?: number };
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw unauthorized('Authorization token is invalid', 'FST_JWT_AUTHORIZATION_TOKEN_INVALID');
    }
    if (!claims.exp || claims.exp * 1000 <= Date.now())
      throw unauthorized('Authorization token expired', 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED');
    if (!claims.sub || !this.clients.has(claims.sub))
      throw unauthorized('Authorization token is invalid', 'FST_JWT_AUTHORIZATION_TOKEN_INVALID');
    return claims.sub;
  }

  /** The bearer token, then the tenant header: missing 400, unknown or not released 403. */
  principal(req: IncomingMessage): Principal {
    const clientId = this.verify(req);
    const tenant = header(req, 'x-service-tenant')?.trim();
    if (!tenant)
      throw new HttpError(
        400,
        'invalid_request',
        "headers must have required property 'x-service-tenant'",
        'FST_ERR_VALIDATION',
      );
    const client = this.clients.get(clientId);
    if (!this.tenants.has(tenant) || !client?.tenants.includes(tenant))
      throw new HttpError(403, 'forbidden', `Tenant ${tenant} is not released for this client`, 'FST_FORBIDDEN_TENANT');
    return { clientId, tenant };
  }

  /** RFC 6749 section 4.4: client_secret_basic or client_secret_post, form or JSON body. */
  token(req: IncomingMessage, raw: string): { status: number; body: Record<string, unknown> } {
    const type = header(req, 'content-type') ?? '';
    let form: Record<string, string> = {};
    if (type.includes('application/json')) {
      try {
        form = JSON.parse(raw || '{}');
      } catch {
        return oauthError(400, 'invalid_request', 'body is not valid JSON');
      }
    } else form = Object.fromEntries(new URLSearchParams(raw));
    let clientId = form.client_id;
    let secret = form.client_secret;
    const auth = header(req, 'authorization');
    if (auth?.toLowerCase().startsWith('basic ')) {
      const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      clientId = decodeURIComponent(decoded.slice(0, i));
      secret = decodeURIComponent(decoded.slice(i + 1));
    }
    if (form.grant_type !== 'client_credentials')
      return oauthError(400, 'unsupported_grant_type', 'only client_credentials is supported');
    const client = clientId ? this.clients.get(clientId) : undefined;
    if (!client || !secret || !safeEqual(secret, client.clientSecret))
      return oauthError(401, 'invalid_client', 'client authentication failed');
    const scope = form.scope?.trim() || client.scope;
    const unknown = scope.split(/\s+/).filter((s) => !client.scope.split(' ').includes(s));
    if (unknown.length) return oauthError(400, 'invalid_scope', `unknown scope: ${unknown.join(' ')}`);
    const access = this.sign(client.clientId, scope);
    return { status: 200, body: { access_token: access, token_type: 'Bearer', expires_in: this.ttlSeconds, scope } };
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function unauthorized(message: string, code: string): HttpError {
  return new HttpError(401, 'unauthorized', message, code, { 'www-authenticate': 'Bearer' });
}

function oauthError(status: number, error: string, description: string) {
  return { status, body: { error, error_description: description } };
}
