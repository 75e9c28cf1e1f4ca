// The small token service (a Quarkus "token-service" next to the API): OAuth client credentials, answered
// with a SmallRye-JWT-style HS256 JWT. Clients authenticate with client_secret_basic or client_secret_post;
// the API verifies signature, issuer, audience and expiry, and which tenants the client is released for.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, uuid } from './util.ts';

export const AUDIENCE = 'hawthorn-network-api';
export const TOKEN_PATH = '/auth/realms/partners/token';

export interface AuthConfig {
  clientId: string;
  clientSecret: string;
  /** Tenants the client may act for. */
  released: string[];
  /** Tenants that exist (released or not). */
  known: string[];
  tokenTtlSeconds: number;
  /** Ports of the listeners: the issuer is the origin the token was requested at (RFC 8414 §3.3). */
  ports: number[];
  postOnly: boolean;
}

export interface Principal {
  clientId: string;
  expiresAt: number;
}

const signingKey = randomBytes(32);
const b64 = (v: Buffer | string) => Buffer.from(v).toString('base64url');

function sign(payload: Record<string, unknown>): string {
  const head = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: 'hawthorn-hs256-1' }));
  const body = b64(JSON.stringify(payload));
  const sig = createHmac('sha256', signingKey).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

const unauthorized = (detail: string) =>
  new ApiError(
    401,
    'unauthorized',
    'The call was not signed in',
    detail,
    'Request a new access token and check the environment',
  );

/** Verifies the bearer token of a call (JWT HS256, issuer, audience, expiry, environment). */
export function authenticate(req: IncomingMessage, cfg: AuthConfig): Principal {
  const header = req.headers.authorization ?? '';
  const m = /^Bearer\s+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/i.exec(header.trim());
  if (!m) throw unauthorized(header ? 'Authorization: not a bearer token' : 'Authorization: missing');
  const [head = '', body = '', sig = ''] = (m[1] ?? '').split('.');
  const expected = createHmac('sha256', signingKey).update(`${head}.${body}`).digest();
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw unauthorized('token: signature invalid');
  let claims: Record<string, unknown>;
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw unauthorized('token: unreadable');
  }
  const exp = Number(claims.exp);
  const issuerPort = /^http:\/\/[^/]+:(\d+)$/.exec(String(claims.iss))?.[1];
  if (!cfg.ports.includes(Number(issuerPort)) || claims.aud !== AUDIENCE)
    throw unauthorized('token: wrong issuer or audience');
  if (claims.env !== 'sandbox') throw unauthorized('token: issued for another environment');
  if (!Number.isFinite(exp) || exp * 1000 <= Date.now()) throw unauthorized('token: expired');
  return { clientId: String(claims.sub), expiresAt: exp };
}

/** The tenant check after authentication: a missing header is a Bean Validation violation (400). */
export function authorizeTenant(req: IncomingMessage, cfg: AuthConfig): string {
  const raw = req.headers['x-service-tenant'];
  const tenant = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
  if (!tenant)
    throw new ApiError(
      400,
      'invalid_request',
      'Request incomplete or unsuitable',
      'x-service-tenant: must not be blank',
    );
  if (!cfg.released.includes(tenant))
    throw new ApiError(
      403,
      'forbidden',
      'The access may not perform this action',
      'The tenant is not released for this access',
      'Check the permissions of the access',
    );
  return tenant;
}

function tokenAnswer(
  res: ServerResponse,
  status: number,
  body: Record<string, unknown>,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json;charset=UTF-8',
    'cache-control': 'no-store',
    pragma: 'no-cache',
    ...extra,
  });
  res.end(JSON.stringify(body));
}

/** POST {TOKEN_PATH}: RFC 6749 client credentials (form body), answered as RFC 6749 §5.1/5.2. */
export async function tokenEndpoint(
  req: IncomingMessage,
  res: ServerResponse,
  cfg: AuthConfig,
  origin: string,
): Promise<void> {
  if (req.method !== 'POST')
    return tokenAnswer(res, 405, { error: 'invalid_request', error_description: 'POST only' }, { allow: 'POST' });
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic && cfg.postOnly)
    return tokenAnswer(res, 401, { error: 'invalid_client', error_description: 'use client_secret_post' });
  if (basic) {
    const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (form.get('grant_type') !== 'client_credentials')
    return tokenAnswer(res, 400, { error: 'unsupported_grant_type', error_description: 'only client_credentials' });
  const ok =
    id === cfg.clientId &&
    secret.length === cfg.clientSecret.length &&
    timingSafeEqual(Buffer.from(secret), Buffer.from(cfg.clientSecret));
  if (!ok)
    return tokenAnswer(
      res,
      401,
      { error: 'invalid_client', error_description: 'client authentication failed' },
      { 'www-authenticate': 'Basic realm="partners"' },
    );
  const now = Math.floor(Date.now() / 1000);
  const scope = 'network.read network.write';
  const token = sign({
    iss: origin,
    aud: AUDIENCE,
    sub: id,
    iat: now,
    exp: now + cfg.tokenTtlSeconds,
    jti: uuid(),
    env: 'sandbox',
    scope,
    groups: ['partner-backend'],
  });
  tokenAnswer(res, 200, { access_token: token, token_type: 'Bearer', expires_in: cfg.tokenTtlSeconds, scope });
}

/** RFC 8414 metadata, so a client can discover the token endpoint. */
export function metadata(res: ServerResponse, origin: string, cfg: AuthConfig): void {
  tokenAnswer(res, 200, {
    issuer: origin,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: cfg.postOnly
      ? ['client_secret_post']
      : ['client_secret_basic', 'client_secret_post'],
    response_types_supported: [],
    scopes_supported: ['network.read', 'network.write'],
  });
}
