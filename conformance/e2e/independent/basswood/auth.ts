// The OAuth side (a Rack::OAuth2-style token endpoint at /oauth2/token, form-encoded, client_secret_basic or
// client_secret_post) and the `before` filter that reads the bearer token and the tenant header.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type Ctx, Halt } from './http.ts';
import type { Store } from './state.ts';

export const TOKEN_PATH = '/oauth2/token';

function secureCompare(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="basswood"';
  res.writeHead(status, headers);
  res.end(JSON.stringify({ error, error_description: description }));
}

/** POST /oauth2/token: client credentials only; JSON bodies are read too, as Rack::OAuth2 tolerates them. */
export function tokenEndpoint(store: Store, res: ServerResponse, rawBody: string, type: string, authz: string): void {
  let form: URLSearchParams;
  if (/json/i.test(type)) {
    try {
      form = new URLSearchParams(JSON.parse(rawBody) as Record<string, string>);
    } catch {
      oauthError(res, 400, 'invalid_request', 'malformed body');
      return;
    }
  } else form = new URLSearchParams(rawBody);
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^basic\s+(.+)$/i.exec(authz);
  if (basic?.[1] && store.options.tokenAuth === 'post') {
    oauthError(res, 401, 'invalid_client', 'client authentication by request body only (client_secret_post)');
    return;
  }
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    oauthError(res, 400, 'unsupported_grant_type', 'only client_credentials is offered');
    return;
  }
  const client = store.clients.get(id);
  if (!client || !secureCompare(client.secret, secret)) {
    oauthError(res, 401, 'invalid_client', 'unknown client');
    return;
  }
  const token = randomBytes(24).toString('hex');
  const ttl = store.options.tokenTtlSec;
  store.tokens.set(token, { clientId: id, expiresAt: Date.now() + ttl * 1000 });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
  res.end(
    JSON.stringify({
      access_token: token,
      token_type: 'Bearer',
      expires_in: ttl,
      scope: form.get('scope') ?? 'connections webhooks audit',
      created_at: Math.floor(Date.now() / 1000),
    }),
  );
}

const unauthorized = (detail: string) =>
  new Halt(401, 'unauthorized', 'The call was not signed in.', detail, 'Request a new access token.');

/** The client a bearer token belongs to, or the 401 it earns (checked before the tenant). */
export function bearerClient(store: Store, authz: string | undefined): string | Halt {
  const m = /^bearer\s+(\S+)$/i.exec(authz ?? '');
  if (!m?.[1]) return unauthorized('Authorization: Bearer <token> is missing.');
  const t = store.tokens.get(m[1]);
  if (!t || t.expiresAt <= Date.now()) return unauthorized('The access token is unknown or expired.');
  return t.clientId;
}

/** `before` filter, second half: the tenant header must name a tenant released to this client. */
export function checkTenant(ctx: Ctx): void {
  const raw = ctx.req.headers['x-service-tenant'];
  const slug = Array.isArray(raw) ? raw[0] : raw;
  if (!slug) {
    throw new Halt(
      400,
      'invalid_request',
      'The tenant header is missing.',
      'Send x-service-tenant.',
      'Name the tenant the call applies to.',
    );
  }
  const client = ctx.store.clients.get(ctx.clientId);
  if (!client?.tenants.includes(slug)) {
    throw new Halt(
      403,
      'forbidden',
      'This access may not act for the tenant.',
      undefined,
      'Check the permissions of the access.',
    );
  }
  ctx.tenant = slug;
}
