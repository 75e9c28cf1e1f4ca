// A Keycloak realm in miniature: the client credentials grant at the realm's token path, RS256 JWT access
// tokens signed with the realm key, and a `tenants` claim set by a protocol mapper (the tenants released to
// the client). The API verifies tokens itself against the realm key, as flask-oidc / python-jose would.
import { createHash, generateKeyPairSync, sign, timingSafeEqual, verify } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiError, type Ctx } from './http.ts';
import { type Json, TENANTS } from './state.ts';

export const REALM_PATH = '/realms/ncs-sandbox';
export const TOKEN_PATH = `${REALM_PATH}/protocol/openid-connect/token`;

export interface Client {
  clientId: string;
  secret: string;
  tenants: string[];
}

const b64u = (b: Buffer | string): string => Buffer.from(b).toString('base64url');

export class Realm {
  readonly keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  readonly kid = createHash('sha256').update(String(Date.now())).digest('hex').slice(0, 16);
  readonly client: Client = {
    clientId: 'partner-backend',
    secret: b64u(createHash('sha256').update(`tamarind-${Math.random()}`).digest()),
    tenants: [TENANTS.main, TENANTS.other],
  };
  issuer = '';
  readonly lifetime: number;
  constructor(lifetime: number) {
    this.lifetime = lifetime;
  }

  issue(scope: string): Json {
    const now = Math.floor(Date.now() / 1000);
    const header = { alg: 'RS256', typ: 'JWT', kid: this.kid };
    const claims = {
      exp: now + this.lifetime,
      iat: now,
      jti: createHash('sha256').update(`${now}${Math.random()}`).digest('hex').slice(0, 32),
      iss: this.issuer,
      aud: 'ncs-public-api',
      sub: `service-account-${this.client.clientId}`,
      typ: 'Bearer',
      azp: this.client.clientId,
      scope,
      tenants: this.client.tenants,
    };
    const input = `${b64u(JSON.stringify(header))}.${b64u(JSON.stringify(claims))}`;
    const token = `${input}.${b64u(sign('sha256', Buffer.from(input), this.keys.privateKey))}`;
    return {
      access_token: token,
      expires_in: this.lifetime,
      refresh_expires_in: 0,
      token_type: 'Bearer',
      'not-before-policy': 0,
      scope,
    };
  }

  /** Verifies a bearer token; returns its claims or throws unauthorized (expired, forged, malformed). */
  verifyBearer(req: IncomingMessage): Json {
    const header = req.headers.authorization ?? '';
    const m = /^Bearer\s+([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/i.exec(header.trim());
    if (!m) throw new ApiError('unauthorized', 'Authentication required', undefined, 'Request a new access token.');
    const [, h = '', p = '', s = ''] = m;
    const ok = verify('sha256', Buffer.from(`${h}.${p}`), this.keys.publicKey, Buffer.from(s, 'base64url'));
    let claims: Json = {};
    try {
      claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Json;
    } catch {
      /* a token whose payload is not JSON is refused below like any forged one */
    }
    const exp = typeof claims.exp === 'number' ? claims.exp : 0;
    if (!ok || claims.iss !== this.issuer || exp <= Date.now() / 1000) {
      throw new ApiError('unauthorized', 'Token invalid or expired', undefined, 'Request a new access token.');
    }
    return claims;
  }

  /** Client authentication as Keycloak accepts it: client_secret_basic or client_secret_post. */
  authenticate(req: IncomingMessage, form: URLSearchParams): boolean {
    let id = form.get('client_id') ?? '';
    let secret = form.get('client_secret') ?? '';
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (basic?.[1]) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      id = decodeURIComponent(decoded.slice(0, i));
      secret = decodeURIComponent(decoded.slice(i + 1));
    }
    const a = createHash('sha256').update(secret).digest();
    const b = createHash('sha256').update(this.client.secret).digest();
    return id === this.client.clientId && timingSafeEqual(a, b);
  }
}

/** The tenant check: the header names a tenant, and the token's mapper released it to the client. */
export function authorize(realm: Realm, ctx: Ctx): void {
  const claims = realm.verifyBearer(ctx.req);
  ctx.clientId = String(claims.azp ?? '');
  const raw = ctx.req.headers['x-service-tenant'];
  const tenant = Array.isArray(raw) ? raw[0] : raw;
  if (!tenant) {
    throw new ApiError('invalid_request', 'Missing tenant header', "Header 'x-service-tenant' is required.");
  }
  const released = Array.isArray(claims.tenants) ? claims.tenants : [];
  if (!released.includes(tenant)) {
    throw new ApiError('forbidden', 'Tenant not released to this client', undefined, 'Check the client permissions.');
  }
  ctx.tenant = tenant;
}
