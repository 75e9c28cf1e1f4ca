// The OAuth client-credentials endpoint (league/oauth2-server style) issuing LexikJWT-like HS256 tokens, its
// RFC 8414 metadata, and the checks of every authenticated call: token, then tenant.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CLIENT_ID, CLIENT_SECRET, CLIENT_TENANTS } from './catalog.ts';
import { ApiError, type Ctx } from './http-util.ts';
import type { ResolvedOptions } from './options.ts';

export const TOKEN_PATH = '/oauth2/token';
const b64 = (v: Buffer | string) => Buffer.from(v).toString('base64url');

function sign(key: Buffer, payload: Record<string, unknown>): string {
  const head = `${b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64(JSON.stringify(payload))}`;
  return `${head}.${createHmac('sha256', key).update(head).digest('base64url')}`;
}

/** Verifies a token; returns the client id or undefined (bad signature, malformed or expired). */
export function verifyToken(key: Buffer, token: string): string | undefined {
  const [head, body, mac, ...rest] = token.split('.');
  if (head === undefined || body === undefined || mac === undefined || rest.length) return undefined;
  const expected = createHmac('sha256', key).update(`${head}.${body}`).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) return undefined;
    return typeof claims.sub === 'string' ? claims.sub : undefined;
  } catch {
    return undefined;
  }
}

const safeEq = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

function oauthError(res: ServerResponse, status: number, error: string, description: string) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ error, error_description: description }));
}

/** POST /oauth2/token: client_secret_basic or client_secret_post, grant client_credentials only. */
export async function tokenEndpoint(opts: ResolvedOptions, req: IncomingMessage, res: ServerResponse) {
  let raw = '';
  for await (const c of req) raw += c;
  const form = new URLSearchParams(raw);
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return oauthError(res, 400, 'unsupported_grant_type', 'Only client_credentials is offered here.');
  }
  if (!safeEq(id, CLIENT_ID) || !safeEq(secret, CLIENT_SECRET)) {
    return oauthError(res, 401, 'invalid_client', 'Client authentication failed.');
  }
  // Rounded up, so the token lives at least the expires_in it states (a floor would cut up to a second).
  const now = Math.ceil(Date.now() / 1000);
  const token = sign(opts.jwtKey, {
    iss: 'yarrow',
    sub: id,
    aud: 'ncs-public',
    iat: now,
    exp: now + opts.tokenTtl,
    jti: randomUUID(),
    tenants: CLIENT_TENANTS,
    scope: 'connections webhooks audit',
  });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
  res.end(
    JSON.stringify({
      access_token: token,
      token_type: 'Bearer',
      expires_in: opts.tokenTtl,
      scope: 'connections webhooks audit',
    }),
  );
}

export function metadata(origin: string) {
  return {
    issuer: origin,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    response_types_supported: [],
    scopes_supported: ['connections', 'webhooks', 'audit'],
  };
}

/** Token first (401), then the tenant header (400 missing, 403 not released). */
export function authenticate(opts: ResolvedOptions, ctx: Ctx): void {
  const m = /^Bearer\s+(\S+)$/i.exec(String(ctx.req.headers.authorization ?? ''));
  const client = m?.[1] ? verifyToken(opts.jwtKey, m[1]) : undefined;
  if (!client) {
    throw new ApiError(
      'unauthorized',
      m ? 'The bearer token is invalid or expired.' : 'The Authorization header with a bearer token is missing.',
      'Request a new access token (client credentials) and check the environment.',
      { 'www-authenticate': 'Bearer realm="ncs"' },
    );
  }
  ctx.clientId = client;
  const tenant = ctx.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant.trim() === '') {
    throw new ApiError(
      'invalid_request',
      'x-service-tenant: This value should not be blank.',
      'Send the tenant identifier in the x-service-tenant header.',
    );
  }
  if (!CLIENT_TENANTS.includes(tenant)) {
    // The same answer for an existing tenant (FOREIGN_TENANT) and an unknown one: no existence oracle.
    throw new ApiError(
      'forbidden',
      'The tenant is not released for this access.',
      'Check the permissions of the access.',
    );
  }
  ctx.tenant = tenant;
}
