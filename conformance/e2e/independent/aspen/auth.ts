// OAuth 2.1 client credentials (opaque bearer tokens, 300 s, renewed not extended) and the header checks of
// every authenticated call: token, then rate window, then Service-Version, then tenant. The rate limit is a
// sliding window per token and tenant (a log of call times per key); every counted answer carries
// X-RateLimit-Limit/-Remaining/-Reset, a refusal adds Retry-After.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Call, HttpError, PUBLISHED_VERSIONS, readText, sendRaw } from './http-kit.ts';
import type { State } from './state.ts';

export const TOKEN_PATH = '/oauth2/token';
export const METADATA_PATH = '/.well-known/oauth-authorization-server';
const TENANT_PATTERN = /^[a-z0-9][a-z0-9-]{1,62}$/;

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function metadata(origin: string): Record<string, unknown> {
  return {
    issuer: origin,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: ['connections', 'catalog', 'webhooks', 'audit'],
  };
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  const headers: Record<string, string> = { pragma: 'no-cache' };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="aspen"';
  sendRaw(res, status, { error, error_description: description }, headers);
}

/** POST /oauth2/token: client_secret_basic or client_secret_post, grant client_credentials only. */
export async function tokenEndpoint(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return oauthError(res, 400, 'invalid_request', 'use POST');
  const form = new URLSearchParams(await readText(req));
  let clientId = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
  if (basic?.[1] !== undefined) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    try {
      // RFC 6749 §2.3.1: both parts are form-urlencoded inside Basic.
      clientId = i < 0 ? '' : decodeURIComponent(decoded.slice(0, i).replace(/\+/g, ' '));
      secret = i < 0 ? '' : decodeURIComponent(decoded.slice(i + 1).replace(/\+/g, ' '));
    } catch {
      return oauthError(res, 400, 'invalid_request', 'malformed Basic credentials');
    }
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return oauthError(res, 400, 'unsupported_grant_type', 'only client_credentials is offered');
  }
  const client = state.clients.get(clientId);
  if (client === undefined || !safeEqual(client.secret, secret)) {
    return oauthError(res, 401, 'invalid_client', 'client authentication failed');
  }
  const token = `aspen_at_${randomBytes(32).toString('base64url')}`;
  const ttl = state.opts.tokenTtlSeconds;
  state.tokens.set(token, { clientId, expiresAt: Date.now() + ttl * 1000 });
  for (const [t, info] of state.tokens) if (info.expiresAt < Date.now()) state.tokens.delete(t);
  const scope = form.get('scope') ?? 'connections catalog webhooks audit';
  sendRaw(res, 200, { access_token: token, token_type: 'Bearer', expires_in: ttl, scope }, { pragma: 'no-cache' });
}

/** Checks the token, counts the call, then Service-Version and tenant. Throws the refusal. */
export function authenticate(state: State, call: Call): void {
  const m = /^Bearer\s+(\S+)$/i.exec(String(call.req.headers.authorization ?? ''));
  const token = m?.[1];
  const info = token === undefined ? undefined : state.tokens.get(token);
  if (token === undefined || info === undefined || info.expiresAt <= Date.now()) {
    throw new HttpError('unauthorized', 'a valid bearer token is required', {
      hint: 'request a new access token (client credentials) and check the environment',
      headers: { 'www-authenticate': 'Bearer realm="aspen"' },
    });
  }
  call.token = token;
  call.clientId = info.clientId;
  const tenantHeader = call.req.headers['x-service-tenant'];
  const tenant = typeof tenantHeader === 'string' ? tenantHeader.trim() : '';
  countCall(state, call, `${token}|${tenant}`);
  checkVersion(call, true);
  if (tenant === '') {
    throw new HttpError('invalid_request', 'header x-service-tenant is required', {
      hint: 'name the tenant the call applies to',
    });
  }
  if (!TENANT_PATTERN.test(tenant)) throw new HttpError('invalid_request', 'header x-service-tenant is malformed');
  const client = state.clients.get(info.clientId);
  if (!state.tenants.has(tenant) || client === undefined || !client.tenants.includes(tenant)) {
    throw new HttpError('forbidden', 'this access is not released for the tenant', {
      hint: 'check the permissions of the access',
    });
  }
  call.tenant = tenant;
}

/** Service-Version: mandatory on authenticated calls, optional on public ones; an unknown value is refused. */
export function checkVersion(call: Call, required: boolean): void {
  const raw = call.req.headers['service-version'];
  const value = typeof raw === 'string' ? raw.trim() : undefined;
  if (value === undefined || value === '') {
    if (!required) return;
    throw new HttpError('invalid_request', 'header Service-Version is required', {
      hint: `send Service-Version: ${PUBLISHED_VERSIONS[0]} (published: ${PUBLISHED_VERSIONS.join(', ')})`,
    });
  }
  if (!PUBLISHED_VERSIONS.includes(value)) {
    throw new HttpError('invalid_request', 'unknown Service-Version', {
      detail: `published versions: ${PUBLISHED_VERSIONS.join(', ')}`,
      hint: `send Service-Version: ${PUBLISHED_VERSIONS[0]}`,
    });
  }
  call.version = value;
}

const windows = new WeakMap<State, Map<string, number[]>>();

function windowsOf(state: State): Map<string, number[]> {
  let w = windows.get(state);
  if (w === undefined) {
    w = new Map();
    windows.set(state, w);
  }
  return w;
}

export function countCall(state: State, call: Call, key: string): void {
  const { rateLimit: limit, windowMs } = state.opts;
  const now = Date.now();
  const all = windowsOf(state);
  const log = (all.get(key) ?? []).filter((t) => t > now - windowMs);
  all.set(key, log);
  if (all.size > 10_000) for (const [k, v] of all) if ((v.at(-1) ?? 0) <= now - windowMs) all.delete(k);
  const oldest = log[0] ?? now;
  const resetSeconds = Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));
  if (log.length >= limit) {
    call.rateHeaders = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(resetSeconds),
    };
    throw new HttpError('rate_limited', 'too many calls in the current window', {
      hint: 'wait for Retry-After seconds, then retry with growing intervals',
      headers: { 'retry-after': String(resetSeconds) },
    });
  }
  log.push(now);
  call.rateHeaders = {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(limit - log.length),
    'x-ratelimit-reset': String(resetSeconds),
  };
}
