// OAuth client credentials (the team's own small authorization server at /auth/token, as a Dream route),
// bearer checks, the tenant header and the limiter. Tokens are Mirage-crypto-style random bytes, base64url.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { type Call, Failure, readRaw, sendJson, VERSIONS } from './http.ts';
import type { Store } from './state.ts';

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** POST /auth/token: client_secret_basic or client_secret_post, grant_type=client_credentials only. */
export async function tokenEndpoint(call: Call, store: Store): Promise<void> {
  const form = new URLSearchParams(await readRaw(call.req));
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^basic\s+(.+)$/i.exec(call.headers.authorization ?? '');
  if (basic?.[1]) {
    const [u, p] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
    id = decodeURIComponent(u ?? '');
    secret = decodeURIComponent(p ?? '');
  }
  const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };
  if (form.get('grant_type') !== 'client_credentials') {
    sendJson(call, 400, { error: 'unsupported_grant_type' }, noStore);
    return;
  }
  if (!sameText(id, store.clientId) || !sameText(secret, store.clientSecret)) {
    sendJson(call, 401, { error: 'invalid_client' }, { ...noStore, 'www-authenticate': 'Basic realm="hackberry"' });
    return;
  }
  const token = randomBytes(32).toString('base64url');
  const ttl = store.options.tokenTtlSeconds;
  store.tokens.set(token, { clientId: id, expiresAt: Date.now() + ttl * 1000 });
  sendJson(call, 200, { access_token: token, token_type: 'Bearer', expires_in: ttl, scope: 'ncs' }, noStore);
}

/** Service-Version is optional; an unknown value is refused, as the team's version middleware does. */
export function checkVersion(call: Call): void {
  const v = call.headers['service-version'];
  if (v !== undefined && !(VERSIONS as readonly string[]).includes(v.trim())) {
    throw new Failure('invalid_request', 'unknown Service-Version', { hint: `supported: ${VERSIONS.join(', ')}` });
  }
}

export interface Principal {
  clientId: string;
  tenant: string;
}

export function authenticate(call: Call, store: Store): Principal {
  const m = /^bearer\s+(\S+)\s*$/i.exec(call.headers.authorization ?? '');
  const entry = m?.[1] ? store.tokens.get(m[1]) : undefined;
  if (!entry || entry.expiresAt <= Date.now()) {
    throw new Failure('unauthorized', 'missing, invalid or expired access token', {
      hint: 'request a new access token',
      headers: { 'www-authenticate': 'Bearer realm="hackberry"' },
    });
  }
  const tenantId = call.headers['x-service-tenant']?.trim();
  if (!tenantId) throw new Failure('invalid_request', 'missing header x-service-tenant');
  const tenant = store.tenants.find((t) => t.id === tenantId);
  if (!tenant?.released) throw new Failure('forbidden', 'tenant not released for this client');
  limit(call, store, `${entry.clientId}|${tenant.id}|sandbox`);
  return { clientId: entry.clientId, tenant: tenant.id };
}

/** Fixed window per client, tenant and environment; the headers go out on every authenticated answer. */
function limit(call: Call, store: Store, key: string): void {
  const { rateLimit, windowMs } = store.options;
  const now = Date.now();
  let w = store.windows.get(key);
  if (!w || now - w.start >= windowMs) {
    w = { start: now, used: 0 };
    store.windows.set(key, w);
  }
  const resetSeconds = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
  if (w.used >= rateLimit) {
    call.res.setHeader('x-ratelimit-limit', String(rateLimit));
    call.res.setHeader('x-ratelimit-remaining', '0');
    throw new Failure('rate_limited', 'too many requests', {
      hint: 'retry after the indicated delay',
      headers: { 'retry-after': String(resetSeconds) },
    });
  }
  w.used += 1;
  call.res.setHeader('x-ratelimit-limit', String(rateLimit));
  call.res.setHeader('x-ratelimit-remaining', String(rateLimit - w.used));
}
