// OAuth client credentials the way Oracle IDCS serves them to a Helidon app: POST /oauth2/v1/token with a
// form body, client_secret_basic or client_secret_post, opaque bearer tokens; then Helidon's security filter
// (401) and a tenant filter (400 without the header, 403 when the tenant is not released to the client).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Ctx, readRaw } from './http.ts';
import type { Store } from './state.ts';

export const TOKEN_PATH = '/oauth2/v1/token';

const tokens = new WeakMap<Store, Map<string, { clientId: string; expires: number }>>();

function tokenMap(store: Store) {
  let m = tokens.get(store);
  if (!m) {
    m = new Map();
    tokens.set(store, m);
  }
  return m;
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="ailanthus"';
  res.writeHead(status, headers);
  res.end(JSON.stringify({ error, error_description: description }));
}

/** RFC 6749 §4.4 token endpoint: the answer is plain OAuth JSON, not the service's envelope. */
export async function tokenEndpoint(store: Store, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return oauthError(res, 400, 'invalid_request', 'POST required');
  const form = new URLSearchParams(await readRaw(req));
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return oauthError(res, 400, 'unsupported_grant_type', 'Only client_credentials is enabled for this client');
  }
  const client = store.clients.get(id);
  if (!client || client.secret !== secret)
    return oauthError(res, 401, 'invalid_client', 'Client authentication failed');
  const token = randomBytes(32).toString('base64url');
  const ttl = store.options.tokenTtlSec;
  tokenMap(store).set(token, { clientId: id, expires: Date.now() + ttl * 1000 });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: ttl, scope: 'ncs.read ncs.write' }));
}

/** RFC 8414 metadata, so a client without a configured token URL finds it. */
export function metadata(origin: string) {
  return {
    issuer: origin,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
  };
}

/** Helidon's security provider: a known, unexpired bearer token, else 401. */
export function authenticate(store: Store, ctx: Ctx): void {
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '');
  const entry = m?.[1] ? tokenMap(store).get(m[1]) : undefined;
  if (!entry || entry.expires <= Date.now()) {
    throw new ApiError(401, 'unauthorized', 'A valid bearer access token is required', undefined, {
      'www-authenticate': 'Bearer realm="ailanthus"',
    });
  }
  ctx.clientId = entry.clientId;
}

/** The tenant filter: the header names a tenant released to this client. */
export function resolveTenant(store: Store, ctx: Ctx): void {
  const tenant = ctx.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant === '') {
    throw new ApiError(400, 'invalid_request', 'Header x-service-tenant is required');
  }
  const released = store.clients.get(ctx.clientId ?? '')?.tenants ?? [];
  if (!released.includes(tenant)) throw new ApiError(403, 'forbidden', 'The tenant is not released to this access');
  ctx.tenant = tenant;
}
