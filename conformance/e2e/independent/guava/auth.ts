// OAuth2 the way Mojolicious::Plugin::OAuth2::Server sets it up: its default token route
// /oauth/access_token, RFC 6749 error bodies ({"error": "invalid_client"}), opaque random tokens and a
// 3600 s default lifetime. Client credentials may come as HTTP Basic or as form fields.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Ctx, readBody } from './http.ts';
import type { Store } from './state.ts';

export const TOKEN_PATH = '/oauth/access_token';

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthReply(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** The client's id and secret from a Basic header, else from the form (client_secret_post). */
function credentials(store: Store, req: IncomingMessage, form: URLSearchParams): [string, string] {
  const auth = req.headers.authorization ?? '';
  if (/^basic /i.test(auth) && store.options.tokenAuth === 'any') {
    const text = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
    const at = text.indexOf(':');
    if (at > 0) return [decodeURIComponent(text.slice(0, at)), decodeURIComponent(text.slice(at + 1))];
  }
  return [form.get('client_id') ?? '', form.get('client_secret') ?? ''];
}

export async function tokenEndpoint(store: Store, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return oauthReply(res, 405, { error: 'invalid_request' });
  const form = new URLSearchParams(await readBody(req));
  if (form.get('grant_type') !== 'client_credentials') {
    return oauthReply(res, 400, { error: 'unsupported_grant_type' });
  }
  const [id, secret] = credentials(store, req, form);
  if (!same(id, store.clientId) || !same(secret, store.clientSecret)) {
    return oauthReply(res, 401, { error: 'invalid_client' });
  }
  const token = randomBytes(24).toString('base64url');
  const lifetime = store.options.tokenSeconds;
  store.tokens.set(token, { clientId: id, expires: Date.now() + lifetime * 1000 });
  oauthReply(res, 200, {
    access_token: token,
    token_type: 'Bearer',
    expires_in: lifetime,
    scope: 'connections webhooks audit',
  });
}

/** The bearer token's client, or undefined (the stream uses this to decide whether to show tenant data). */
export function bearerClient(store: Store, req: IncomingMessage): string | undefined {
  const match = /^bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  const token = match?.[1];
  if (!token) return undefined;
  const entry = store.tokens.get(token);
  if (!entry) return undefined;
  if (entry.expires <= Date.now()) {
    // Expired tokens are renewed, never extended: drop it so it cannot come back.
    store.tokens.delete(token);
    return undefined;
  }
  return entry.clientId;
}

/** The `under` route every authenticated route hangs off: token first, then the tenant header. */
export function authenticate(store: Store, ctx: Ctx): void {
  const client = bearerClient(store, ctx.req);
  if (!client) {
    throw new ApiError('unauthorized', 'Access token missing, invalid or expired.', undefined, {
      'WWW-Authenticate': 'Bearer realm="guava"',
    });
  }
  ctx.clientId = client;
  const raw = ctx.req.headers['x-service-tenant'];
  const tenant = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!tenant)
    throw new ApiError(
      'invalid_request',
      'Header x-service-tenant is required.',
      '/header/x-service-tenant: Missing property.',
    );
  if (!store.released.has(tenant)) {
    // An unknown tenant and one not released answer alike, so the answer tells no one which tenants exist.
    throw new ApiError('forbidden', 'This access is not released for the tenant.');
  }
  ctx.tenant = tenant;
}
