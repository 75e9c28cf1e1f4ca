// GoTrue-like authorization server: client credentials and refresh grants at /auth/v1/token, HS256 JWTs
// with zelkova's own claims (app_metadata.tenants, env), refresh tokens rotated on every use.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Access, ApiError, header } from './http-kit.ts';

export interface Client {
  id: string;
  secret: string;
  tenants: string[];
  purpose: string;
  owner: string;
  expiresAt: string;
}

export interface AuthState {
  jwtSecret: Buffer;
  tokenTtlSec: number;
  clients: Client[];
  /** Existing tenants; a tenant outside the access's release answers 403. */
  tenants: string[];
  refresh: Map<string, { clientId: string; expires: number }>;
}

const b64 = (v: Buffer | string) => Buffer.from(v).toString('base64url');

function sign(state: AuthState, claims: Record<string, unknown>): string {
  const head = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: 'zk-2026-11' }));
  const body = b64(JSON.stringify(claims));
  const mac = createHmac('sha256', state.jwtSecret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${mac}`;
}

function verify(state: AuthState, token: string): Record<string, unknown> | undefined {
  const [head, body, mac] = token.split('.');
  if (!head || !body || !mac) return undefined;
  const want = createHmac('sha256', state.jwtSecret).update(`${head}.${body}`).digest();
  const got = Buffer.from(mac, 'base64url');
  if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
    return typeof claims.exp === 'number' && claims.exp * 1000 > Date.now() ? claims : undefined;
  } catch {
    return undefined;
  }
}

function issue(state: AuthState, client: Client) {
  const now = Math.floor(Date.now() / 1000);
  const access_token = sign(state, {
    iss: 'zelkova-auth/v1',
    sub: client.id,
    aud: 'ncs-public',
    role: 'service_role',
    iat: now,
    exp: now + state.tokenTtlSec,
    app_metadata: { tenants: client.tenants, env: 'sandbox', purpose: client.purpose },
  });
  const refresh_token = randomBytes(24).toString('base64url');
  state.refresh.set(refresh_token, { clientId: client.id, expires: Date.now() + 86_400_000 });
  return { access_token, token_type: 'bearer', expires_in: state.tokenTtlSec, refresh_token };
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ error, error_description: description }));
}

/** POST /auth/v1/token (grant_type in the form body or, GoTrue style, in the query). */
export function tokenEndpoint(
  state: AuthState,
  req: IncomingMessage,
  res: ServerResponse,
  raw: string,
  url: URL,
): void {
  const form = new URLSearchParams(raw);
  const grant = form.get('grant_type') ?? url.searchParams.get('grant_type');
  let id = form.get('client_id');
  let secret = form.get('client_secret');
  const basic = /^basic\s+(.+)$/i.exec(header(req, 'authorization') ?? '');
  if (basic?.[1]) {
    const [u, p] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
    id = decodeURIComponent(u ?? '');
    secret = decodeURIComponent(p ?? '');
  }
  if (grant === 'refresh_token') {
    const rt = form.get('refresh_token') ?? '';
    const entry = state.refresh.get(rt);
    state.refresh.delete(rt); // rotation: a refresh token works once
    const client = entry && entry.expires > Date.now() ? state.clients.find((c) => c.id === entry.clientId) : undefined;
    if (!client) {
      oauthError(res, 400, 'invalid_grant', 'refresh token unknown, used or expired');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(issue(state, client)));
    return;
  }
  if (grant !== 'client_credentials') {
    oauthError(res, 400, 'unsupported_grant_type', 'client_credentials or refresh_token');
    return;
  }
  const client = state.clients.find((c) => c.id === id);
  const okSecret =
    client &&
    secret !== null &&
    Buffer.byteLength(secret) === Buffer.byteLength(client.secret) &&
    timingSafeEqual(Buffer.from(secret), Buffer.from(client.secret));
  if (!client || !okSecret) {
    oauthError(res, 401, 'invalid_client', 'client authentication failed');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(issue(state, client)));
}

export function metadata(origin: string) {
  return {
    issuer: origin,
    token_endpoint: `${origin}/auth/v1/token`,
    grant_types_supported: ['client_credentials', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    response_types_supported: [],
  };
}

/** Resolves the bearer token and tenant header to an access: 401, then 400 (no tenant), then 403. */
export function authenticate(state: AuthState, req: IncomingMessage): Access & { client: Client } {
  const m = /^bearer\s+(\S+)\s*$/i.exec(header(req, 'authorization') ?? '');
  const claims = m?.[1] ? verify(state, m[1]) : undefined;
  const client = claims ? state.clients.find((c) => c.id === claims.sub) : undefined;
  if (!client) {
    const e = new ApiError(
      401,
      'unauthorized',
      'call was not signed in',
      undefined,
      'request a new access token, check the environment',
    );
    e.headers = { 'www-authenticate': `Bearer realm="ncs-public"${m ? ', error="invalid_token"' : ''}` };
    throw e;
  }
  const tenant = header(req, 'x-service-tenant')?.trim();
  if (!tenant) throw new ApiError(400, 'invalid_request', 'header x-service-tenant is required');
  if (!client.tenants.includes(tenant)) {
    throw new ApiError(
      403,
      'forbidden',
      'access may not act for this tenant',
      undefined,
      'check the permissions of the access',
    );
  }
  return { clientId: client.id, tenant, environment: 'sandbox', client };
}
