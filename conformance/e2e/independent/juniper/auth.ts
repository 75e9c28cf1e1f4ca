// OAuth 2.1 client credentials (Doorkeeper's POST /oauth/token: client_secret_basic or client_secret_post,
// opaque tokens) and the checks every authenticated call goes through: bearer token, then tenant.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readRaw, writeJson } from './http-kit.ts';
import { type Ctx, HttpError, type State } from './types.ts';

export const TOKEN_PATH = '/oauth/token';

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthError(res: ServerResponse, status: number, error: string, description: string) {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
  if (status === 401) headers['WWW-Authenticate'] = 'Basic realm="Doorkeeper"';
  writeJson(res, status, { error, error_description: description }, headers);
}

function parseForm(raw: string, type: string): Record<string, string> {
  if (type.startsWith('application/json')) {
    try {
      const value = JSON.parse(raw) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

export async function tokenEndpoint(state: State, req: IncomingMessage, res: ServerResponse) {
  if (req.method !== 'POST') return oauthError(res, 405, 'invalid_request', 'Use POST.');
  const raw = (await readRaw(req).catch(() => Buffer.alloc(0))).toString('utf8');
  const form = parseForm(raw, String(req.headers['content-type'] ?? ''));
  let clientId = form.client_id;
  let secret = form.client_secret;
  const basic = /^Basic\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    clientId = decodeURIComponent(decoded.slice(0, colon));
    secret = decodeURIComponent(decoded.slice(colon + 1));
  }
  if (form.grant_type !== 'client_credentials') {
    return oauthError(res, 400, 'unsupported_grant_type', 'Only client_credentials is offered here.');
  }
  const client = clientId === undefined ? undefined : state.clients.get(clientId);
  if (!client || secret === undefined || !sameSecret(secret, client.secret) || clientId === undefined) {
    return oauthError(res, 401, 'invalid_client', 'Client authentication failed.');
  }
  const token = randomBytes(32).toString('base64url');
  const ttl = state.options.tokenTtlSeconds;
  state.tokens.set(token, { clientId, expiresAt: Date.now() + ttl * 1000 });
  writeJson(
    res,
    200,
    {
      access_token: token,
      token_type: 'Bearer',
      expires_in: ttl,
      scope: 'connections webhooks audit',
      created_at: Math.floor(Date.now() / 1000),
    },
    { Pragma: 'no-cache' },
  );
}

const unauthorized = (detail: string) =>
  new HttpError(401, 'unauthorized', 'The call was not signed in.', detail, 'Request a new access token.');

// Bearer token from the Authorization header only (a token in the query string is never read).
export function authenticate(ctx: Ctx) {
  const header = ctx.req.headers.authorization;
  if (header === undefined || header === '') throw unauthorized('The Authorization header is missing.');
  const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/i.exec(header);
  if (!match?.[1]) throw unauthorized('The Authorization header carries no bearer token.');
  const token = ctx.state.tokens.get(match[1]);
  if (!token || token.expiresAt <= Date.now()) throw unauthorized('The access token is unknown or expired.');
  ctx.clientId = token.clientId;
}

// x-service-tenant: missing is a malformed request (400); a tenant the client is not released for, or one
// that does not exist, is 403 (the answer does not tell the two apart).
export function requireTenant(ctx: Ctx) {
  const raw = ctx.req.headers['x-service-tenant'];
  const tenant = Array.isArray(raw) ? raw[0] : raw;
  if (tenant === undefined || tenant.trim() === '') {
    throw new HttpError(400, 'invalid_request', 'The header x-service-tenant is required.', 'header: x-service-tenant');
  }
  const client = ctx.clientId === undefined ? undefined : ctx.state.clients.get(ctx.clientId);
  if (!client?.tenants.includes(tenant) || !ctx.state.tenants.has(tenant)) {
    throw new HttpError(
      403,
      'forbidden',
      'This access may not act for the tenant.',
      undefined,
      'Check the permissions of the access.',
    );
  }
  ctx.tenant = tenant;
}

export function tenantOf(ctx: Ctx): string {
  if (ctx.tenant === undefined) throw new HttpError(500, 'internal', 'Tenant missing.');
  return ctx.tenant;
}
