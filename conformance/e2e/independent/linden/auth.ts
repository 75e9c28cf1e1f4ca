// The OAuth side, as Authlib's AuthorizationServer would serve it: client credentials only, the client
// authenticated by client_secret_basic or client_secret_post, RFC 8414 metadata, opaque bearer tokens.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Call } from './call.ts';
import type { State } from './state.ts';
import { randomToken, readBody, sendJson } from './util.ts';

export const TOKEN_PATH = '/oauth/token';
export const METADATA_PATH = '/.well-known/oauth-authorization-server';
const SCOPES = ['ncs.catalog', 'ncs.connections', 'ncs.webhooks', 'ncs.audit'];

export function metadata(origin: string, methods: readonly string[]): Record<string, unknown> {
  return {
    issuer: origin,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    token_endpoint_auth_methods_supported: methods,
    grant_types_supported: ['client_credentials'],
    response_types_supported: [],
    scopes_supported: SCOPES,
    service_documentation: `${origin}/api/public/v1`,
  };
}

const same = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  const headers: Record<string, string> = { pragma: 'no-cache' };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="linden", error="invalid_client"';
  sendJson(res, status, { error, error_description: description }, headers);
}

/** POST /oauth/token (RFC 6749 §4.4). Errors are OAuth errors, not the interface's envelope. */
export async function tokenEndpoint(req: IncomingMessage, res: ServerResponse, state: State): Promise<void> {
  if (req.method !== 'POST') return oauthError(res, 400, 'invalid_request', 'use POST');
  const raw = await readBody(req, 8192);
  const form = new URLSearchParams(raw ? raw.toString('utf8') : '');
  let id = form.get('client_id') ?? undefined;
  let secret = form.get('client_secret') ?? undefined;
  const auth = req.headers.authorization;
  const methods = state.options.tokenAuthMethods;
  if (auth?.toLowerCase().startsWith('basic ')) {
    if (!methods.includes('client_secret_basic'))
      return oauthError(res, 401, 'invalid_client', 'client_secret_basic is not enabled for this client');
    const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return oauthError(res, 401, 'invalid_client', 'malformed Basic credentials');
    // RFC 6749 §2.3.1: both parts are form-urlencoded before Base64.
    id = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
    secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
  } else if (secret !== undefined && !methods.includes('client_secret_post')) {
    return oauthError(res, 401, 'invalid_client', 'client_secret_post is not enabled for this client');
  }
  if (!id || !secret || id !== state.client.id || !same(secret, state.client.secret)) {
    return oauthError(res, 401, 'invalid_client', 'client authentication failed');
  }
  const grant = form.get('grant_type');
  if (grant !== 'client_credentials') return oauthError(res, 400, 'unsupported_grant_type', 'only client_credentials');
  const asked = (form.get('scope') ?? '').split(' ').filter(Boolean);
  const unknown = asked.find((s) => !SCOPES.includes(s));
  if (unknown) return oauthError(res, 400, 'invalid_scope', `unknown scope ${unknown}`);
  const scope = (asked.length ? asked : SCOPES).join(' ');
  const token = `lnd_at_${randomToken(32)}`;
  const ttl = state.options.tokenTtlSeconds;
  state.tokens.set(token, { clientId: id, expiresAt: Date.now() + ttl * 1000, scope });
  sendJson(res, 200, { access_token: token, token_type: 'Bearer', expires_in: ttl, scope }, { pragma: 'no-cache' });
}

/** Bearer token of the call: sets call.clientId or throws 401. */
export function authenticate(call: Call): void {
  const auth = call.req.headers.authorization ?? '';
  const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  if (!m)
    throw new ApiError(
      'unauthorized',
      'a bearer token is required',
      undefined,
      'request an access token with client credentials',
    );
  const token = call.state.tokens.get(m[1] ?? '');
  if (!token || token.expiresAt <= Date.now()) {
    throw new ApiError(
      'unauthorized',
      'the access token is unknown or expired',
      undefined,
      'request a new access token',
    );
  }
  call.clientId = token.clientId;
}

/** The tenant header: missing, unknown or not released to this access all answer 403. */
export function resolveTenant(call: Call): void {
  const raw = call.req.headers['x-service-tenant'];
  const tenant = Array.isArray(raw) ? raw[0] : raw;
  if (!tenant) throw new ApiError('forbidden', 'no tenant given', 'send the header x-service-tenant');
  if (!call.state.client.tenants.includes(tenant)) {
    throw new ApiError(
      'forbidden',
      'this access is not released for the tenant',
      undefined,
      'check the permissions of the access',
    );
  }
  call.tenant = tenant;
}
