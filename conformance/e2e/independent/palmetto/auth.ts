// OAuth client credentials and the bearer filter of palmetto (an AuthDynamicFeature with an OAuthCredentialAuthFilter),
// plus the rate-limit filter that runs right after it: per client, tenant and environment, a fixed window.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Ctx } from './http.ts';
import type { Store } from './state.ts';

export const TOKEN_PATH = '/oauth2/token';
export const CLIENT_ID = 'palmetto-conformance';
export const TENANTS = { main: 'charleston-eats', other: 'savannah-grill', foreign: 'beaufort-holdings' };
/** Tenants the client was released for; the foreign one exists but is not released (403). */
const RELEASED = new Set([TENANTS.main, TENANTS.other]);
const KNOWN = new Set([...RELEASED, TENANTS.foreign]);

export class Auth {
  readonly clientSecret = randomBytes(24).toString('base64url');
  private readonly tokens = new Map<string, { clientId: string; expires: number }>();
  private readonly windows = new Map<string, { start: number; used: number }>();
  private readonly store: Store;
  constructor(store: Store) {
    this.store = store;
  }

  /** POST /oauth2/token, form encoded, client_secret_basic or client_secret_post (RFC 6749 §2.3.1). */
  token(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const form = new URLSearchParams(raw);
    let id = form.get('client_id') ?? '';
    let secret = form.get('client_secret') ?? '';
    const basic = /^Basic\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
    if (basic?.[1]) {
      const [u = '', p = ''] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
      id = decodeURIComponent(u);
      secret = decodeURIComponent(p);
    }
    const reply = (status: number, body: object) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (form.get('grant_type') !== 'client_credentials') {
      reply(400, { error: 'unsupported_grant_type' });
      return;
    }
    const a = Buffer.from(secret);
    const b = Buffer.from(this.clientSecret);
    if (id !== CLIENT_ID || a.length !== b.length || !timingSafeEqual(a, b)) {
      reply(401, { error: 'invalid_client' });
      return;
    }
    const token = randomBytes(32).toString('hex');
    const ttl = this.store.options.tokenTtlSeconds;
    this.tokens.set(token, { clientId: id, expires: Date.now() + ttl * 1000 });
    reply(200, { access_token: token, token_type: 'Bearer', expires_in: ttl, scope: 'connections webhooks audit' });
  }

  /** The bearer client of a call, or undefined without an Authorization header; a bad token is 401. */
  bearer(ctx: Ctx): string | undefined {
    const h = ctx.req.headers.authorization;
    if (h === undefined) return undefined;
    const m = /^Bearer\s+(\S+)$/i.exec(h);
    const t = m?.[1] ? this.tokens.get(m[1]) : undefined;
    if (!t || t.expires <= Date.now()) {
      throw new ApiError(401, 'unauthorized', 'Credentials are required to access this resource.', undefined, {
        'www-authenticate': 'Bearer realm="palmetto", error="invalid_token"',
      });
    }
    return t.clientId;
  }

  /** The full filter chain of an authenticated resource: bearer, tenant release, then the rate limit. */
  authenticate(ctx: Ctx): void {
    const client = this.bearer(ctx);
    if (client === undefined) {
      throw new ApiError(401, 'unauthorized', 'Credentials are required to access this resource.', undefined, {
        'www-authenticate': 'Bearer realm="palmetto"',
      });
    }
    const tenant = String(ctx.req.headers['x-service-tenant'] ?? '');
    if (!tenant) throw new ApiError(400, 'invalid_request', 'x-service-tenant header is required');
    if (!KNOWN.has(tenant) || !RELEASED.has(tenant)) {
      throw new ApiError(403, 'forbidden', 'The client is not released for this tenant.');
    }
    ctx.clientId = client;
    ctx.tenant = tenant;
    this.limit(ctx);
  }

  private limit(ctx: Ctx): void {
    const { rateLimit, windowMs } = this.store.options;
    const key = `${ctx.clientId}|${ctx.tenant}|sandbox`;
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || now - w.start >= windowMs) {
      w = { start: now, used: 0 };
      this.windows.set(key, w);
    }
    const retry = String(Math.max(1, Math.ceil((w.start + windowMs - now) / 1000)));
    ctx.headers['x-ratelimit-limit'] = String(rateLimit);
    if (w.used >= rateLimit) {
      ctx.headers['x-ratelimit-remaining'] = '0';
      throw new ApiError(429, 'rate_limited', 'Too many requests.', undefined, { 'retry-after': retry });
    }
    w.used += 1;
    ctx.headers['x-ratelimit-remaining'] = String(rateLimit - w.used);
  }
}
