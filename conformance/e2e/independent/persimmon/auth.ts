// The team's own OAuth token endpoint (client credentials only) and servant-auth style JWT bearer tokens:
// HS256 over a server-held key, `exp` checked on every call, no refresh (tokens are renewed, not extended).
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Ctx, fail, readRaw } from './http.ts';
import { CLIENT, KNOWN, RELEASED } from './state.ts';

export const TOKEN_PATH = '/oauth2/token';

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

export class Tokens {
  private readonly key = randomBytes(32);
  private readonly lifetimeSeconds: number;
  constructor(lifetimeSeconds: number) {
    this.lifetimeSeconds = lifetimeSeconds;
  }

  issue(clientId: string): string {
    const now = Math.floor(Date.now() / 1000);
    const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    // servant-auth puts the user value under `dat`; the standard claims go beside it.
    const claims = { sub: clientId, iat: now, exp: now + this.lifetimeSeconds, jti: randomUUID(), dat: { clientId } };
    const body = `${head}.${b64url(JSON.stringify(claims))}`;
    return `${body}.${b64url(createHmac('sha256', this.key).update(body).digest())}`;
  }

  /** The client id of a valid, unexpired token, or undefined (servant-auth's `Indefinite`/`BadPassword`). */
  verify(token: string): string | undefined {
    const [head, payload, sig] = token.split('.');
    if (head === undefined || payload === undefined || sig === undefined) return undefined;
    const want = createHmac('sha256', this.key).update(`${head}.${payload}`).digest();
    const got = Buffer.from(sig, 'base64url');
    if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      if (typeof claims.exp !== 'number' || claims.exp <= Date.now() / 1000) return undefined;
      return typeof claims.sub === 'string' ? claims.sub : undefined;
    } catch {
      return undefined;
    }
  }

  get lifetime(): number {
    return this.lifetimeSeconds;
  }
}

function oauthError(res: ServerResponse, status: number, error: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...extra });
  res.end(JSON.stringify({ error }));
}

/** RFC 6749 token endpoint: client_secret_basic or client_secret_post, form-encoded, OAuth error bodies. */
export async function tokenEndpoint(req: IncomingMessage, res: ServerResponse, tokens: Tokens): Promise<void> {
  if (req.method !== 'POST') return oauthError(res, 405, 'invalid_request', { allow: 'POST' });
  const form = new URLSearchParams(await readRaw(req));
  let id = form.get('client_id') ?? undefined;
  let secret = form.get('client_secret') ?? undefined;
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const at = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, at));
    secret = decodeURIComponent(decoded.slice(at + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') return oauthError(res, 400, 'unsupported_grant_type');
  if (id !== CLIENT.id || secret !== CLIENT.secret) {
    return oauthError(res, 401, 'invalid_client', { 'www-authenticate': 'Basic realm="persimmon"' });
  }
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(
    JSON.stringify({
      access_token: tokens.issue(id),
      token_type: 'Bearer',
      expires_in: tokens.lifetime,
      scope: 'connections webhooks audit',
    }),
  );
}

/** The bearer token's client, then the tenant header: 401 before 403, as servant-auth runs before handlers. */
export function authenticate(ctx: Ctx, tokens: Tokens): { clientId: string; tenant: string } {
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '');
  const clientId = m?.[1] ? tokens.verify(m[1]) : undefined;
  if (clientId === undefined) {
    ctx.headers['www-authenticate'] = 'Bearer realm="persimmon"';
    throw fail.unauthorized(m ? 'the access token is invalid or expired' : 'missing bearer token');
  }
  const tenantHeader = ctx.req.headers['x-service-tenant'];
  const tenant = Array.isArray(tenantHeader) ? tenantHeader[0] : tenantHeader;
  if (!tenant) throw fail.badRequest('header x-service-tenant is required');
  if (!KNOWN.has(tenant) || !RELEASED.has(tenant)) throw fail.forbidden('the tenant is not released to this access');
  return { clientId, tenant };
}
