// Doorkeeper's token endpoint (POST /oauth/token, client credentials, client_secret_basic or _post) and
// its error bodies ({error, error_description}); and the bearer check of every authenticated call.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { newSecret, type State } from './state.ts';
import { ApiError, header } from './util.ts';

export const SCOPES = ['public', 'connections:write', 'webhooks:write', 'audit:read'];

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  const extra: Record<string, string> = status === 401 ? { 'www-authenticate': 'Basic realm="Doorkeeper"' } : {};
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    pragma: 'no-cache',
    ...extra,
  });
  res.end(JSON.stringify({ error, error_description: description }));
}

export function tokenEndpoint(state: State, req: IncomingMessage, res: ServerResponse, raw: string): void {
  const type = (header(req, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  let form: URLSearchParams;
  if (type === 'application/json') {
    try {
      form = new URLSearchParams(JSON.parse(raw) as Record<string, string>);
    } catch {
      oauthError(res, 400, 'invalid_request', 'The request is missing a required parameter.');
      return;
    }
  } else form = new URLSearchParams(raw);
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const auth = header(req, 'authorization') ?? '';
  if (/^basic /i.test(auth)) {
    const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (!same(id, state.clientId) || !same(secret, state.clientSecret)) {
    oauthError(
      res,
      401,
      'invalid_client',
      'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
    );
    return;
  }
  const grant = form.get('grant_type');
  if (grant !== 'client_credentials') {
    oauthError(
      res,
      400,
      'unsupported_grant_type',
      'The authorization grant type is not supported by the authorization server.',
    );
    return;
  }
  const asked = (form.get('scope') ?? '').split(/\s+/).filter(Boolean);
  if (asked.some((s) => !SCOPES.includes(s))) {
    oauthError(res, 400, 'invalid_scope', 'The requested scope is invalid, unknown, or malformed.');
    return;
  }
  const scope = (asked.length > 0 ? asked : SCOPES).join(' ');
  const token = newSecret('', 32);
  const ttl = state.options.tokenTtlSeconds;
  state.tokens.set(token, { clientId: id, scope, expiresAt: Date.now() + ttl * 1000 });
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    pragma: 'no-cache',
  });
  res.end(
    JSON.stringify({
      access_token: token,
      token_type: 'Bearer',
      expires_in: ttl,
      scope,
      created_at: Math.floor(Date.now() / 1000),
    }),
  );
}

/** doorkeeper_authorize!: the access of the call, or 401. */
export function authenticate(
  state: State,
  req: IncomingMessage,
): { token: string; clientId: string; expiresAt: number } {
  const auth = header(req, 'authorization') ?? '';
  const m = /^bearer\s+(\S+)\s*$/i.exec(auth);
  if (!m?.[1])
    throw new ApiError(
      'unauthorized',
      'Authorization with a bearer token is required',
      undefined,
      'request an access token at /oauth/token',
    );
  const found = state.tokens.get(m[1]);
  if (!found || found.expiresAt <= Date.now()) {
    throw new ApiError(
      'unauthorized',
      'The access token is invalid or has expired',
      undefined,
      'request a new access token',
    );
  }
  return { token: m[1], clientId: found.clientId, expiresAt: found.expiresAt };
}

/** The tenant of the call: missing, unknown or not released for this client is 403 (role/tenant not released). */
export function tenantOf(state: State, req: IncomingMessage): string {
  const tenant = header(req, 'x-service-tenant');
  if (!tenant)
    throw new ApiError(
      'forbidden',
      'The x-service-tenant header is required',
      undefined,
      'name the tenant the call is for',
    );
  if (!state.released.has(tenant))
    throw new ApiError(
      'forbidden',
      'This access is not released for the tenant',
      undefined,
      'check the permissions of the access',
    );
  return tenant;
}
