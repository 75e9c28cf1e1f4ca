// OAuth 2.1 client credentials (the authorization server runs beside the API, like a sidecar), bearer
// checks, tenant release and the per-access token bucket.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Call, fail } from './http.ts';
import type { State } from './state.ts';

export const TOKEN_PATH = '/oauth/v2/token';

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ error, error_description: description }));
}

/** POST /oauth/v2/token: grant_type=client_credentials, client_secret_basic or client_secret_post. */
export async function tokenEndpoint(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let text = '';
  for await (const chunk of req) text += chunk;
  const form = new URLSearchParams(text);
  let clientId = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    clientId = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    oauthError(res, 400, 'unsupported_grant_type', 'only client_credentials is offered here');
    return;
  }
  const access = state.clients.get(clientId);
  if (!access || !sameSecret(access.secret, secret)) {
    oauthError(res, 401, 'invalid_client', 'client authentication failed');
    return;
  }
  const token = `hly.${randomBytes(24).toString('base64url')}`;
  state.tokens.set(token, { clientId, expires: Date.now() + state.opts.tokenTtl * 1000 });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(
    JSON.stringify({
      access_token: token,
      token_type: 'Bearer',
      expires_in: state.opts.tokenTtl,
      scope: 'ncs.connections ncs.webhooks ncs.audit',
    }),
  );
}

export function metadata(origin: string) {
  return {
    issuer: origin,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: ['ncs.connections', 'ncs.webhooks', 'ncs.audit'],
  };
}

export interface Principal {
  clientId: string;
  tenant: string;
}

/** Takes one token from the access's bucket; sets the rate headers. False when the bucket is empty. */
function take(state: State, call: Call, key: string): boolean {
  const { rateLimit, windowMs } = state.opts;
  const perMs = rateLimit / windowMs;
  const t = Date.now();
  const b = state.buckets.get(key) ?? { tokens: rateLimit, at: t };
  b.tokens = Math.min(rateLimit, b.tokens + (t - b.at) * perMs);
  b.at = t;
  state.buckets.set(key, b);
  const allowed = b.tokens >= 1;
  if (allowed) b.tokens -= 1;
  call.headers['x-ratelimit-limit'] = String(rateLimit);
  call.headers['x-ratelimit-remaining'] = String(Math.floor(b.tokens));
  call.headers['x-ratelimit-policy'] = `${rateLimit};w=${Math.ceil(windowMs / 1000)};policy=token-bucket`;
  if (!allowed) call.headers['retry-after'] = String(Math.max(1, Math.ceil((1 - b.tokens) / perMs / 1000)));
  return allowed;
}

/** Bearer, then the bucket of the access, then the tenant. Sends the failure itself and returns undefined. */
export function authenticate(state: State, call: Call): Principal | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(call.req.headers.authorization ?? '');
  const token = m?.[1] ? state.tokens.get(m[1]) : undefined;
  if (!token || token.expires < Date.now()) {
    fail(call, 'unauthorized', 'a valid bearer token is required', {
      hint: 'request a new access token with client credentials and send it as Authorization: Bearer',
    });
    return undefined;
  }
  if (!take(state, call, token.clientId)) {
    fail(call, 'rate_limited', 'too many calls for this access', {
      hint: 'wait the Retry-After seconds, then retry with growing intervals',
    });
    return undefined;
  }
  const tenant = call.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant.trim() === '') {
    fail(call, 'invalid_request', 'the x-service-tenant header is required', {
      violations: [{ field: 'x-service-tenant', description: 'required header' }],
    });
    return undefined;
  }
  const access = state.clients.get(token.clientId);
  if (!access?.tenants.includes(tenant)) {
    fail(call, 'forbidden', 'this access is not released for the tenant', {
      hint: 'check the permissions of the access',
    });
    return undefined;
  }
  return { clientId: token.clientId, tenant };
}
