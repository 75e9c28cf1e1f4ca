// A stand-in for Microsoft Entra ID: client credentials on /{directory}/oauth2/v2.0/token, RS256 JWT
// access tokens with Entra's v2 claims plus our own (`ncs_tenants`: the tenants this client is
// released for; `roles`: app roles), OpenID/RFC 8414 metadata and a JWKS. The API validates the
// token like APIM's validate-jwt policy: signature, issuer, audience, lifetime.
import {
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomUUID,
  sign,
  timingSafeEqual,
  verify,
} from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const AUDIENCE = 'api://spruce-network-connections';
export const DIRECTORY = '72f988bf-0000-4000-8000-5b7d1e2a0c31';

export interface Client {
  secret: string;
  tenants: string[];
  roles: string[];
}
export interface Principal {
  clientId: string;
  tenants: string[];
  roles: string[];
  expiresAt: number;
}

export interface Authority {
  issuer: string;
  tokenUrl: string;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  validate(authorization: string | undefined): Principal | undefined;
}

const b64u = (b: Buffer | string): string => Buffer.from(b).toString('base64url');

export function createAuthority(authBase: string, clients: Map<string, Client>, tokenTtlSeconds: number): Authority {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomUUID().replaceAll('-', '').slice(0, 16);
  const issuer = `${authBase}/${DIRECTORY}/v2.0`;
  const tokenUrl = `${authBase}/${DIRECTORY}/oauth2/v2.0/token`;

  function issue(clientId: string, client: Client): string {
    const now = Math.floor(Date.now() / 1000);
    const header = { typ: 'JWT', alg: 'RS256', kid };
    const claims = {
      aud: AUDIENCE,
      iss: issuer,
      iat: now,
      nbf: now,
      exp: now + tokenTtlSeconds,
      azp: clientId,
      azpacr: '1',
      oid: randomUUID(),
      sub: clientId,
      tid: DIRECTORY,
      roles: client.roles,
      ncs_tenants: client.tenants,
      uti: randomUUID(),
      ver: '2.0',
    };
    const input = `${b64u(JSON.stringify(header))}.${b64u(JSON.stringify(claims))}`;
    return `${input}.${b64u(sign('RSA-SHA256', Buffer.from(input), privateKey))}`;
  }

  function metadata(): Record<string, unknown> {
    return {
      issuer,
      token_endpoint: tokenUrl,
      jwks_uri: `${authBase}/${DIRECTORY}/discovery/v2.0/keys`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      response_types_supported: ['token'],
      scopes_supported: [`${AUDIENCE}/.default`],
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', authBase).pathname;
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (
      req.method === 'GET' &&
      (path === `/${DIRECTORY}/v2.0/.well-known/openid-configuration` ||
        path.startsWith('/.well-known/oauth-authorization-server'))
    ) {
      return json(200, metadata());
    }
    if (req.method === 'GET' && path === `/${DIRECTORY}/discovery/v2.0/keys`) {
      return json(200, {
        keys: [{ ...(publicKey as KeyObject).export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' }],
      });
    }
    if (req.method !== 'POST' || path !== `/${DIRECTORY}/oauth2/v2.0/token`) return json(404, { error: 'not_found' });
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const form = new URLSearchParams(raw);
    let id = form.get('client_id') ?? undefined;
    let secret = form.get('client_secret') ?? undefined;
    const basic = /^Basic (.+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
    if (basic) {
      const [u, p] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      id = decodeURIComponent(u ?? '');
      secret = decodeURIComponent(p ?? '');
    }
    if (form.get('grant_type') !== 'client_credentials') {
      return json(400, {
        error: 'unsupported_grant_type',
        error_description: 'AADSTS70003: only client_credentials is enabled for this app.',
      });
    }
    const client = id ? clients.get(id) : undefined;
    const ok =
      client &&
      secret !== undefined &&
      Buffer.byteLength(secret) === Buffer.byteLength(client.secret) &&
      timingSafeEqual(Buffer.from(secret), Buffer.from(client.secret));
    if (!client || !ok || !id)
      return json(401, {
        error: 'invalid_client',
        error_description: 'AADSTS7000215: Invalid client secret provided.',
      });
    json(200, {
      token_type: 'Bearer',
      expires_in: tokenTtlSeconds,
      ext_expires_in: tokenTtlSeconds,
      access_token: issue(id, client),
    });
  }

  const pub = createPublicKey(privateKey);
  function validate(authorization: string | undefined): Principal | undefined {
    const m = /^Bearer ([\w-]+)\.([\w-]+)\.([\w-]+)$/i.exec(authorization ?? '');
    if (!m) return undefined;
    const [, h, p, s] = m as unknown as [string, string, string, string];
    try {
      const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
      if (header.alg !== 'RS256' || header.kid !== kid) return undefined;
      if (!verify('RSA-SHA256', Buffer.from(`${h}.${p}`), pub, Buffer.from(s, 'base64url'))) return undefined;
      const c = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
      const now = Date.now() / 1000;
      if (c.iss !== issuer || c.aud !== AUDIENCE || typeof c.exp !== 'number' || c.exp <= now || c.nbf > now + 30)
        return undefined;
      return { clientId: String(c.azp), tenants: c.ncs_tenants ?? [], roles: c.roles ?? [], expiresAt: c.exp * 1000 };
    } catch {
      return undefined;
    }
  }

  return { issuer, tokenUrl, handle, validate };
}
