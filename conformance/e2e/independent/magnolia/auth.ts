// Auth0-style machine-to-machine tokens: POST /oauth/token (client credentials, JSON or form body,
// secret in the body or Basic), an `audience`, RS256 JWTs signed with a key made at start (JWKS served),
// expires_in 86400 unless shortened. The released tenants ride in a namespaced claim.
import { generateKeyPairSync, sign, timingSafeEqual, verify } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { uuidv7 } from './util.ts';

export const AUDIENCE = 'https://api.magnolia.example/ncs';
const TENANTS_CLAIM = 'https://magnolia.example/tenants';

export interface Client {
  id: string;
  secret: string;
  tenants: string[];
}

export interface Auth {
  tokenHandler(req: IncomingMessage, res: ServerResponse, issuer: string): Promise<void>;
  jwks(): unknown;
  /** The token's client and released tenants, or undefined when missing, malformed, expired or forged. */
  verifyBearer(header: string | undefined): { clientId: string; tenants: string[] } | undefined;
}

const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');

export function createAuth(clients: Client[], ttlSeconds: number, requireAudience = false): Auth {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = uuidv7().slice(0, 13);
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' };

  function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ error, error_description: description }));
  }

  async function tokenHandler(req: IncomingMessage, res: ServerResponse, issuer: string): Promise<void> {
    const parts: Buffer[] = [];
    for await (const c of req) parts.push(c as Buffer);
    const text = Buffer.concat(parts).toString('utf8');
    let params: Record<string, string> = {};
    if ((req.headers['content-type'] ?? '').includes('json')) {
      try {
        params = JSON.parse(text) as Record<string, string>;
      } catch {
        return oauthError(res, 400, 'invalid_request', 'body is not JSON');
      }
    } else params = Object.fromEntries(new URLSearchParams(text));
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    let id = params.client_id;
    let secret = params.client_secret;
    if (basic) {
      const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      id = decodeURIComponent(decoded.slice(0, i));
      secret = decodeURIComponent(decoded.slice(i + 1));
    }
    if (params.grant_type !== 'client_credentials')
      return oauthError(res, 400, 'unsupported_grant_type', 'only client_credentials is enabled for this application');
    const client = clients.find((c) => c.id === id);
    const ok =
      client !== undefined &&
      typeof secret === 'string' &&
      secret.length === client.secret.length &&
      timingSafeEqual(Buffer.from(secret), Buffer.from(client.secret));
    if (!client || !ok) return oauthError(res, 401, 'access_denied', 'Unauthorized');
    // Auth0 without a default audience for the tenant refuses a token request that names none.
    if (params.audience === undefined && requireAudience)
      return oauthError(
        res,
        403,
        'access_denied',
        'No audience parameter was provided, and no default audience has been configured',
      );
    if (params.audience !== undefined && params.audience !== AUDIENCE)
      return oauthError(res, 403, 'access_denied', 'Service not enabled within domain');
    const now = Math.floor(Date.now() / 1000);
    const header = { alg: 'RS256', typ: 'JWT', kid };
    const claims = {
      iss: `${issuer}/`,
      sub: `${client.id}@clients`,
      aud: AUDIENCE,
      iat: now,
      exp: now + ttlSeconds,
      azp: client.id,
      gty: 'client-credentials',
      scope: 'read:catalog write:connections write:webhooks read:audit',
      [TENANTS_CLAIM]: client.tenants,
      jti: uuidv7(),
    };
    const input = `${b64(header)}.${b64(claims)}`;
    const signature = sign('sha256', Buffer.from(input), privateKey).toString('base64url');
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
    res.end(
      JSON.stringify({
        access_token: `${input}.${signature}`,
        token_type: 'Bearer',
        expires_in: ttlSeconds,
        scope: claims.scope,
      }),
    );
  }

  function verifyBearer(header: string | undefined): { clientId: string; tenants: string[] } | undefined {
    const m = /^Bearer\s+([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(header ?? '');
    if (!m) return undefined;
    const [, head = '', payload = '', sig = ''] = m;
    const good = verify('sha256', Buffer.from(`${head}.${payload}`), publicKey, Buffer.from(sig, 'base64url'));
    if (!good) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
      if (claims.aud !== AUDIENCE || typeof claims.exp !== 'number') return undefined;
      if (claims.exp * 1000 <= Date.now()) return undefined;
      const tenants = claims[TENANTS_CLAIM];
      return { clientId: String(claims.azp), tenants: Array.isArray(tenants) ? tenants.map(String) : [] };
    } catch {
      return undefined;
    }
  }

  return { tokenHandler, verifyBearer, jwks: () => ({ keys: [jwk] }) };
}

/** OpenID-style discovery document (Auth0 serves it), also valid as RFC 8414 metadata. */
export function discovery(issuer: string): unknown {
  return {
    issuer: `${issuer}/`,
    token_endpoint: `${issuer}/oauth/token`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
    id_token_signing_alg_values_supported: ['RS256'],
  };
}
