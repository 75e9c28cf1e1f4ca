// OAuth client credentials in the shape of Laravel Passport (POST /oauth/token, opaque bearer tokens), and the
// guard every authenticated call passes: rate limit (per presented token), bearer token, tenant header.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Call } from './http-kit.ts';
import { readBody, sendError } from './http-kit.ts';
import type { State } from './state.ts';

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`${JSON.stringify({ error, error_description: description }, null, 2)}\n`);
}

/** POST /oauth/token: client_secret_basic or client_secret_post, form or JSON body, as Passport accepts. */
export async function tokenEndpoint(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = (await readBody(req)) ?? '';
  let fields: Record<string, string> = {};
  if ((req.headers['content-type'] ?? '').includes('json')) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === 'object')
        fields = Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
    } catch {
      return oauthError(res, 400, 'invalid_request', 'The request body is not valid JSON.');
    }
  } else {
    fields = Object.fromEntries(new URLSearchParams(raw));
  }
  let clientId = fields.client_id;
  let secret = fields.client_secret;
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    clientId = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (fields.grant_type !== 'client_credentials') {
    return oauthError(res, 400, 'unsupported_grant_type', 'Only client_credentials is offered to servers.');
  }
  const client = clientId ? state.clients.get(clientId) : undefined;
  if (!client || !secret || !sameText(client.secret, secret)) {
    return oauthError(res, 401, 'invalid_client', 'Client authentication failed.');
  }
  const token = `oak_${randomBytes(24).toString('base64url')}`;
  const ttl = state.options.tokenTtlSeconds;
  state.tokens.set(token, { clientId: clientId ?? '', expiresMs: Date.now() + ttl * 1000 });
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`${JSON.stringify({ token_type: 'Bearer', expires_in: ttl, access_token: token }, null, 2)}\n`);
}

/**
 * The guard of authenticated calls. Counting comes first (keyed by the presented token, or the peer address
 * without one), so 401s carry the rate-limit headers too. Returns false when it has answered.
 */
export function authenticate(state: State, call: Call): boolean {
  const bearer = /^Bearer\s+(\S+)$/i.exec(call.req.headers.authorization ?? '')?.[1];
  const bucket = bearer ? `token:${bearer}` : `ip:${call.req.socket.remoteAddress ?? 'unknown'}`;
  if (!countCall(state, call, bucket)) return false;
  const token = bearer ? state.tokens.get(bearer) : undefined;
  if (!token || token.expiresMs <= Date.now()) {
    call.headers['www-authenticate'] = 'Bearer realm="api"';
    sendError(
      call,
      'unauthorized',
      'Unauthenticated.',
      bearer ? 'The access token is unknown or has expired.' : 'No bearer token was sent.',
      'Request a new access token with the client credentials flow and send it as "Authorization: Bearer <token>".',
    );
    return false;
  }
  call.clientId = token.clientId;
  call.token = bearer;
  const tenant = call.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant.trim() === '') {
    sendError(
      call,
      'invalid_request',
      'The x-service-tenant header is required.',
      undefined,
      'Send the tenant identifier in the x-service-tenant header.',
    );
    return false;
  }
  const client = state.clients.get(token.clientId);
  if (!client?.tenants.includes(tenant)) {
    sendError(
      call,
      'forbidden',
      'This action is unauthorized.',
      'The access is not released for this tenant.',
      'Ask the tenant to release the access in the developer portal.',
    );
    return false;
  }
  call.tenant = tenant;
  return true;
}

// Sliding-window rate limit per token (Laravel's RateLimiter keyed by the bearer token), with the headers on
// every counted answer, 401s included: X-RateLimit-Limit/-Remaining/-Reset (epoch seconds), Retry-After on 429.
/** Counts the call in its bucket; answers 429 and returns false when the window is full. */
export function countCall(state: State, call: Call, bucket: string): boolean {
  const { rateLimit, windowMs } = state.options;
  const now = Date.now();
  const hits = (state.windows.get(bucket) ?? []).filter((t) => t > now - windowMs);
  state.windows.set(bucket, hits);
  if (hits.length >= rateLimit) {
    const oldest = hits[0] ?? now;
    const waitMs = Math.max(1000, oldest + windowMs - now);
    const retryAfter = Math.ceil(waitMs / 1000);
    call.headers['x-ratelimit-limit'] = String(rateLimit);
    call.headers['x-ratelimit-remaining'] = '0';
    call.headers['x-ratelimit-reset'] = String(Math.ceil((now + waitMs) / 1000));
    call.headers['retry-after'] = String(retryAfter);
    sendError(
      call,
      'rate_limited',
      'Too Many Attempts.',
      `At most ${rateLimit} calls per ${windowMs / 1000} s are allowed for this access token.`,
      `Wait ${retryAfter} s (Retry-After), then retry with growing intervals.`,
    );
    return false;
  }
  hits.push(now);
  const resetMs = (hits[0] ?? now) + windowMs;
  call.headers['x-ratelimit-limit'] = String(rateLimit);
  call.headers['x-ratelimit-remaining'] = String(rateLimit - hits.length);
  call.headers['x-ratelimit-reset'] = String(Math.ceil(resetMs / 1000));
  return true;
}
