// OAuth client credentials (the authorization server lives beside the API, as a Phoenix app with
// an /auth scope would host it), RFC 8414 metadata, and the plugs of every authenticated call:
// bearer token, tenant header, Service-Version.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Ctx } from './http-kit.ts';
import { CURRENT_VERSION, halt, PUBLISHED_VERSIONS, readBody } from './http-kit.ts';
import type { PineState } from './state.ts';
import { TENANTS } from './state.ts';

export const TOKEN_PATH = '/auth/token';
export const METADATA_PATH = '/.well-known/oauth-authorization-server';
const TOKEN_TTL_S = 3600;

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    pragma: 'no-cache',
    ...extra,
  });
  res.end(JSON.stringify(body));
}

export function serveMetadata(res: ServerResponse, origin: string): void {
  oauthJson(res, 200, {
    issuer: origin,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    response_types_supported: [],
  });
}

/** POST /auth/token: grant_type=client_credentials, the client by Basic or in the form. */
export async function serveToken(req: IncomingMessage, res: ServerResponse, state: PineState): Promise<void> {
  if (req.method !== 'POST') {
    oauthJson(res, 405, { error: 'invalid_request', error_description: 'POST only' }, { allow: 'POST' });
    return;
  }
  const form = new URLSearchParams(await readBody(req));
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic?.[1] !== undefined) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, colon));
    secret = decodeURIComponent(decoded.slice(colon + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    oauthJson(res, 400, { error: 'unsupported_grant_type' });
    return;
  }
  const client = state.clients.find((c) => c.id === id);
  if (client === undefined || !same(client.secret, secret)) {
    oauthJson(res, 401, { error: 'invalid_client' }, { 'www-authenticate': 'Basic realm="pine"' });
    return;
  }
  const token = `pine_at_${randomBytes(24).toString('base64url')}`;
  state.tokens.set(token, { clientId: client.id, expiresAt: Date.now() + TOKEN_TTL_S * 1000 });
  oauthJson(res, 200, { access_token: token, token_type: 'Bearer', expires_in: TOKEN_TTL_S });
}

/** The access behind a bearer token, or undefined (missing, unknown, expired). */
export function accessOf(req: IncomingMessage, state: PineState): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (m?.[1] === undefined) return undefined;
  const t = state.tokens.get(m[1]);
  if (t === undefined || t.expiresAt <= Date.now()) return undefined;
  return t.clientId;
}

/** The tenant header as sent (one value), or undefined. */
export function tenantHeader(req: IncomingMessage): string | undefined {
  const v = req.headers['x-service-tenant'];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** Plug :authenticate — token (401), tenant (400 missing, 403 not released or unknown). */
export function authenticate(ctx: Ctx, state: PineState): void {
  const clientId = accessOf(ctx.req, state);
  if (clientId === undefined) {
    halt('unauthorized', 'A valid bearer token is required', undefined, 'Request a new access token.');
  }
  const tenant = tenantHeader(ctx.req);
  if (tenant === undefined) {
    halt('invalid_request', 'The x-service-tenant header is required', 'x-service-tenant: missing');
  }
  const client = state.clients.find((c) => c.id === clientId);
  if (client === undefined || !client.tenants.includes(tenant) || !TENANTS.includes(tenant)) {
    halt('forbidden', 'This access is not released for the tenant', undefined, 'Check the permissions of the access.');
  }
  ctx.clientId = clientId;
  ctx.tenant = tenant;
}

/** The version asked for; required on authenticated calls unless the option says otherwise. */
export function negotiateVersion(ctx: Ctx, required: boolean): void {
  const v = ctx.req.headers['service-version'];
  const value = typeof v === 'string' ? v.trim() : undefined;
  if (value === undefined || value === '') {
    if (required) {
      halt(
        'invalid_request',
        'The Service-Version header is required',
        'service-version: missing',
        `Send Service-Version: ${CURRENT_VERSION}.`,
      );
    }
    return;
  }
  if (!PUBLISHED_VERSIONS.includes(value)) {
    halt('invalid_request', 'Unknown Service-Version', `service-version: one of ${PUBLISHED_VERSIONS.join(', ')}`);
  }
  ctx.version = value;
}
