// The token endpoint (OAuth client credentials) issuing short-lived HS256 JWTs with an audience, the way a
// Google service account's self-signed JWT reaches ESPv2, and the check of a bearer token and tenant.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Ctx, readRaw } from './http-util.ts';

export const AUDIENCE = 'https://networkconnections.poplar.example';

export interface AuthConfig {
  clientId: string;
  clientSecret: string;
  /** Tenants the client is released for. */
  tenants: string[];
  /** Tenants that exist but are not released for the client (403). */
  knownTenants: string[];
  tokenTtlSec: number;
  signingKey: Buffer;
}

export function newAuthConfig(tokenTtlSec: number): AuthConfig {
  return {
    clientId: `poplar-ci-${randomBytes(4).toString('hex')}`,
    clientSecret: randomBytes(24).toString('base64url'),
    tenants: ['poplar-orchard', 'poplar-grove'],
    knownTenants: ['poplar-orchard', 'poplar-grove', 'poplar-ridge'],
    tokenTtlSec,
    signingKey: randomBytes(32),
  };
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

function sign(cfg: AuthConfig, payload: Record<string, unknown>): string {
  const head = `${b64({ alg: 'HS256', typ: 'JWT', kid: 'poplar-1' })}.${b64(payload)}`;
  return `${head}.${createHmac('sha256', cfg.signingKey).update(head).digest('base64url')}`;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ error, error_description: description }));
}

/** POST /oauth2/v4/token: client_secret_basic or client_secret_post; optional audience must be poplar's. */
export async function tokenEndpoint(cfg: AuthConfig, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const issuer = `http://${req.headers.host ?? '127.0.0.1'}`;
  if (req.method !== 'POST') return oauthError(res, 405, 'invalid_request', 'POST only');
  const form = new URLSearchParams(await readRaw(req, 16_384));
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
  if (basic) {
    const text = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
    const at = text.indexOf(':');
    try {
      id = decodeURIComponent(text.slice(0, at < 0 ? text.length : at));
      secret = decodeURIComponent(at < 0 ? '' : text.slice(at + 1));
    } catch {
      return oauthError(res, 401, 'invalid_client', 'malformed client authentication');
    }
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return oauthError(res, 400, 'unsupported_grant_type', 'only client_credentials is offered');
  }
  if (!same(id, cfg.clientId) || !same(secret, cfg.clientSecret)) {
    return oauthError(res, 401, 'invalid_client', 'client authentication failed');
  }
  const aud = form.get('audience') ?? AUDIENCE;
  if (aud !== AUDIENCE) return oauthError(res, 400, 'invalid_target', `audience must be ${AUDIENCE}`);
  const now = Math.floor(Date.now() / 1000);
  const token = sign(cfg, {
    iss: issuer,
    sub: cfg.clientId,
    aud,
    iat: now,
    exp: now + cfg.tokenTtlSec,
    jti: randomBytes(8).toString('hex'),
    scope: 'connections.read connections.write webhooks.write audit.read',
  });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(
    JSON.stringify({
      access_token: token,
      token_type: 'Bearer',
      expires_in: cfg.tokenTtlSec,
      scope: 'connections.read connections.write webhooks.write audit.read',
    }),
  );
}

/** RFC 8414 metadata: the issuer is the origin it is served from (§3.3), the same authorization server on both. */
export function metadata(origin: string): Record<string, unknown> {
  return {
    issuer: origin,
    token_endpoint: `${origin}/oauth2/v4/token`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: ['connections.read', 'connections.write', 'webhooks.write', 'audit.read'],
  };
}

/** Verifies the bearer JWT (signature, audience, expiry); sets ctx.clientId. */
export function authenticate(cfg: AuthConfig, ctx: Ctx): void {
  const m = /^Bearer\s+([\w-]+\.[\w-]+\.[\w-]+)$/i.exec(String(ctx.req.headers.authorization ?? ''));
  if (!m)
    throw new ApiError(
      'unauthorized',
      'Request is missing a valid bearer token.',
      undefined,
      'Request a new access token.',
    );
  const [h = '', p = '', s = ''] = (m[1] ?? '').split('.');
  const expect = createHmac('sha256', cfg.signingKey).update(`${h}.${p}`).digest('base64url');
  if (!same(s, expect))
    throw new ApiError('unauthorized', 'Bearer token is not valid.', undefined, 'Request a new access token.');
  let claims: Record<string, unknown>;
  try {
    claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
  } catch {
    throw new ApiError('unauthorized', 'Bearer token is not valid.');
  }
  if (claims.aud !== AUDIENCE) throw new ApiError('unauthorized', 'Bearer token has the wrong audience.');
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) {
    throw new ApiError(
      'unauthorized',
      'Bearer token has expired.',
      undefined,
      'Request a new access token; tokens are renewed, not extended.',
    );
  }
  ctx.clientId = String(claims.sub);
}

/** The tenant header: missing or not released for this client is 403 PERMISSION_DENIED. */
export function tenantOf(cfg: AuthConfig, ctx: Ctx): string {
  const t = ctx.req.headers['x-service-tenant'];
  const tenant = Array.isArray(t) ? t[0] : t;
  if (!tenant)
    throw new ApiError(
      'forbidden',
      'The x-service-tenant header is required.',
      undefined,
      'Send the tenant identifier.',
    );
  if (!cfg.tenants.includes(tenant)) {
    throw new ApiError(
      'forbidden',
      'The access is not released for this tenant.',
      undefined,
      'Check the permissions of the access.',
    );
  }
  return tenant;
}
