// OAuth 2.1 client credentials (client_secret_basic or client_secret_post), bearer checks, tenant release, quota.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Call } from './http.ts';
import type { State } from './state.ts';

export const TOKEN_PATH = '/oauth2/v1/token';
export const SCOPES = 'connections.read connections.write catalog.read webhooks.manage audit.read';

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="sandalwood"';
  res.writeHead(status, headers);
  res.end(JSON.stringify({ error, error_description: description }));
}

/** POST /oauth2/v1/token: an RFC 6749 answer (not the API envelope: this is the authorization server). */
export async function tokenEndpoint(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return oauthError(res, 405, 'invalid_request', 'Use POST.');
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (form.get('grant_type') !== 'client_credentials')
    return oauthError(res, 400, 'unsupported_grant_type', 'Only client_credentials is offered to servers.');
  if (!same(id, state.clientId) || !same(secret, state.clientSecret))
    return oauthError(res, 401, 'invalid_client', 'Client authentication failed.');
  const token = `sw1.${randomBytes(32).toString('base64url')}`;
  const ttl = state.options.tokenTtlSeconds;
  state.tokens.set(token, { clientId: id, expiresAt: Date.now() + ttl * 1000 });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
  res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: ttl, scope: SCOPES }));
}

/** Checks the bearer token and the tenant header, then takes one call from the quota. */
export function authenticate(state: State, call: Call): void {
  const m = /^bearer\s+(\S+)\s*$/i.exec(call.req.headers.authorization ?? '');
  const hint = 'Request a new access token with the client credentials flow and send it as Authorization: Bearer.';
  if (!m?.[1]) throw new ApiError('unauthorized', 'A bearer access token is required.', { hint });
  const grant = state.tokens.get(m[1]);
  if (!grant) throw new ApiError('unauthorized', 'The access token is not valid for this environment.', { hint });
  if (grant.expiresAt <= Date.now()) {
    state.tokens.delete(m[1]);
    throw new ApiError('unauthorized', 'The access token has expired.', { hint });
  }
  call.clientId = grant.clientId;
  const header = call.req.headers['x-service-tenant'];
  const tenant = Array.isArray(header) ? header[0] : header;
  if (!tenant || tenant.trim() === '')
    throw new ApiError('invalid_request', 'The header x-service-tenant is required.', { field: 'x-service-tenant' });
  if (!state.released.has(tenant))
    throw new ApiError('forbidden', 'This access may not act for the tenant.', {
      hint: 'Check that the tenant is released to this OAuth client.',
    });
  call.tenant = tenant;
  const q = state.take(`${grant.clientId}|${tenant}|sandbox`);
  const headers = { 'X-RateLimit-Limit': String(q.limit), 'X-RateLimit-Remaining': String(q.remaining) };
  for (const [k, v] of Object.entries(headers)) call.res.setHeader(k, v);
  if (!q.allowed)
    throw new ApiError('rate_limited', 'Too many calls in the current quota window.', {
      hint: 'Wait for Retry-After seconds, then retry with growing intervals.',
      headers: { 'Retry-After': String(q.retryAfter) },
    });
}
