// OAuth 2.1 client credentials, as the team's Keycloak realm would issue them (path shape of a realm),
// and the bearer + tenant check every authenticated route runs before its handler.

import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Ctx } from './http-util.ts';
import { ApiError } from './http-util.ts';
import { randomToken } from './util.ts';

export const TOKEN_PATH = '/realms/laurel/protocol/openid-connect/token';
// RFC 8414 §3: the issuer has a path (the realm), so its metadata lives at the well-known prefix + that path.
export const ISSUER_PATH = '/realms/laurel';
export const METADATA_PATH = `/.well-known/oauth-authorization-server${ISSUER_PATH}`;

export interface Client {
  id: string;
  secret: string;
  tenants: string[];
}

export interface AuthState {
  clients: Client[];
  /** Tenants that exist; a tenant not in a client's list answers 403 (not released), unknown ones too. */
  tenants: string[];
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  tokenLifetimeS: number;
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

/** POST token endpoint: client_secret_basic or client_secret_post, grant_type=client_credentials only. */
export async function tokenEndpoint(req: IncomingMessage, res: ServerResponse, auth: AuthState): Promise<void> {
  if ((req.method ?? '') !== 'POST') return oauthError(res, 405, 'invalid_request', 'POST only');
  let raw = '';
  for await (const chunk of req) {
    raw += String(chunk);
    if (raw.length > 8192) return oauthError(res, 400, 'invalid_request', 'body too large');
  }
  const form = new URLSearchParams(raw);
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, colon));
    secret = decodeURIComponent(decoded.slice(colon + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return oauthError(res, 400, 'unsupported_grant_type', 'only client_credentials is offered');
  }
  const client = auth.clients.find((c) => c.id === id);
  if (!client || !same(client.secret, secret))
    return oauthError(res, 401, 'invalid_client', 'client authentication failed');
  const token = `lrl.${randomToken(32)}`;
  auth.tokens.set(token, { clientId: client.id, expiresAt: Date.now() + auth.tokenLifetimeS * 1000 });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
  res.end(
    JSON.stringify({
      access_token: token,
      token_type: 'Bearer',
      expires_in: auth.tokenLifetimeS,
      scope: 'connections:read connections:write webhooks:manage audit:read',
    }),
  );
}

export function metadata(res: ServerResponse, origin: string): void {
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=300' });
  res.end(
    JSON.stringify({
      issuer: `${origin}${ISSUER_PATH}`,
      token_endpoint: `${origin}${TOKEN_PATH}`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      response_types_supported: [],
      scopes_supported: ['connections:read', 'connections:write', 'webhooks:manage', 'audit:read'],
    }),
  );
}

/** Bearer token -> client id, or 401. */
export function bearer(ctx: Ctx, auth: AuthState): string {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(String(ctx.req.headers.authorization ?? ''));
  if (!m?.[1]) throw new ApiError('unauthorized', 'header.Authorization: bearer token required');
  const entry = auth.tokens.get(m[1]);
  if (!entry || entry.expiresAt <= Date.now()) {
    throw new ApiError('unauthorized', 'header.Authorization: token invalid or expired', 'request a new access token');
  }
  return entry.clientId;
}

/** The tenant header; missing is a validation error (400), as a FastAPI Header(...) dependency would say. */
export function tenantHeader(ctx: Ctx): string {
  const raw = ctx.req.headers['x-service-tenant'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value.trim() === '') {
    throw new ApiError('invalid_request', 'header.x-service-tenant: field required');
  }
  return value.trim();
}

export function released(auth: AuthState, clientId: string, tenant: string): void {
  const client = auth.clients.find((c) => c.id === clientId);
  if (!client?.tenants.includes(tenant)) {
    throw new ApiError('forbidden', 'header.x-service-tenant: tenant not released for this access');
  }
}
