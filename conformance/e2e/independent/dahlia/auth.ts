// Hosted-identity-provider style OAuth: client credentials at /auth/oauth/token, signed JWT access tokens
// (RS256 with a JWKS endpoint, or HS256), short lifetime, a `scope` claim, OIDC discovery metadata.
import { createHmac, createSign, createVerify, generateKeyPairSync, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readRaw } from './http-kit.ts';
import { randomToken, uuidv7 } from './util.ts';

export interface AuthConfig {
  alg: 'RS256' | 'HS256';
  lifetimeSeconds: number;
  clientId: string;
  clientSecret: string;
  tenants: string[]; // tenants this client is released for
}
export interface Claims {
  sub: string;
  scope: string;
  tenants: string[];
  env: string;
  exp: number;
  jti: string;
}

export const SCOPES = 'catalog:read connections:read connections:write webhooks:write audit:read';

export function createIssuer(config: AuthConfig) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = uuidv7();
  const hsKey = randomToken(32);
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' };

  function sign(claims: Record<string, unknown>): string {
    const head = Buffer.from(JSON.stringify({ alg: config.alg, typ: 'at+jwt', kid })).toString('base64url');
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    const input = `${head}.${body}`;
    const sig =
      config.alg === 'RS256'
        ? createSign('RSA-SHA256').update(input).sign(privateKey).toString('base64url')
        : createHmac('sha256', hsKey).update(input).digest('base64url');
    return `${input}.${sig}`;
  }

  function verify(token: string): Claims | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [h = '', b = '', s = ''] = parts;
    try {
      const head = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
      if (head.alg !== config.alg) return undefined;
      const input = `${h}.${b}`;
      if (config.alg === 'RS256') {
        if (!createVerify('RSA-SHA256').update(input).verify(publicKey, Buffer.from(s, 'base64url'))) return undefined;
      } else {
        const want = createHmac('sha256', hsKey).update(input).digest();
        const got = Buffer.from(s, 'base64url');
        if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
      }
      const claims = JSON.parse(Buffer.from(b, 'base64url').toString('utf8')) as Claims;
      if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) return undefined;
      return claims;
    } catch {
      return undefined;
    }
  }

  function metadata(origin: string) {
    const issuer = `${origin}/auth/`;
    return {
      issuer,
      token_endpoint: `${origin}/auth/oauth/token`,
      jwks_uri: `${origin}/auth/.well-known/jwks.json`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      response_types_supported: ['token'],
      scopes_supported: SCOPES.split(' '),
      id_token_signing_alg_values_supported: [config.alg],
      subject_types_supported: ['public'],
    };
  }

  function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
    if (status === 401) headers['www-authenticate'] = 'Basic realm="dahlia"';
    res.writeHead(status, headers);
    res.end(JSON.stringify({ error, error_description: description }));
  }

  // Token endpoint: form or JSON body (identity providers accept both), Basic or post credentials.
  async function tokenEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return oauthError(res, 405, 'invalid_request', 'POST only');
    let params: Record<string, string> = {};
    try {
      const raw = (await readRaw(req)).toString('utf8');
      const type = req.headers['content-type'] ?? '';
      params = type.includes('json') ? JSON.parse(raw) : Object.fromEntries(new URLSearchParams(raw));
    } catch {
      return oauthError(res, 400, 'invalid_request', 'unreadable body');
    }
    let id = params.client_id;
    let secret = params.client_secret;
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (basic) {
      const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
      const at = decoded.indexOf(':');
      id = decodeURIComponent(decoded.slice(0, at));
      secret = decodeURIComponent(decoded.slice(at + 1));
    }
    if (params.grant_type !== 'client_credentials')
      return oauthError(res, 400, 'unsupported_grant_type', 'client_credentials only');
    const a = Buffer.from(String(secret ?? ''));
    const b = Buffer.from(config.clientSecret);
    if (id !== config.clientId || a.length !== b.length || !timingSafeEqual(a, b)) {
      return oauthError(res, 401, 'invalid_client', 'unknown client or wrong secret');
    }
    const now = Math.floor(Date.now() / 1000);
    const token = sign({
      iss: 'dahlia-auth',
      sub: `${id}@clients`,
      aud: 'https://api.dahlia.example/',
      iat: now,
      exp: now + config.lifetimeSeconds,
      jti: uuidv7(),
      scope: SCOPES,
      tenants: config.tenants,
      env: 'sandbox',
      gty: 'client-credentials',
    });
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
    res.end(
      JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: config.lifetimeSeconds, scope: SCOPES }),
    );
  }

  // Serves the auth paths; returns false when the path is not one of them.
  async function handle(req: IncomingMessage, res: ServerResponse, path: string, origin: string): Promise<boolean> {
    if (path === '/auth/oauth/token') {
      await tokenEndpoint(req, res);
      return true;
    }
    const json = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=300' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET') return false;
    if (
      [
        '/auth/.well-known/openid-configuration',
        '/.well-known/openid-configuration/auth',
        '/.well-known/oauth-authorization-server/auth',
      ].includes(path)
    ) {
      json(metadata(origin));
      return true;
    }
    if (path === '/auth/.well-known/jwks.json') {
      json({ keys: config.alg === 'RS256' ? [jwk] : [] });
      return true;
    }
    return false;
  }

  return { verify, handle, metadata };
}
export type Issuer = ReturnType<typeof createIssuer>;
