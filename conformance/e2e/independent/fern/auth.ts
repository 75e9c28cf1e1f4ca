// OAuth client credentials with HTTP Basic client authentication only (client_secret_basic), opaque
// tokens of 300 s; the guard of authenticated calls (nginx-style rate limit first, then token,
// Service-Version, tenant) and the fixed-window rate limiter per access.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Ctx } from './http-util.ts';
import { ApiError, VERSIONS } from './http-util.ts';

export interface Access {
  clientId: string;
  tenants: string[];
}

export interface AuthConfig {
  clientId: string;
  clientSecret: string;
  tenants: string[];
  allTenants: string[];
  tokenLifetimeS: number;
  rateLimit: number;
  windowMs: number;
  versionOptional: boolean;
}

export class Auth {
  tokens = new Map<string, { access: Access; expires: number }>();
  windows = new Map<string, { start: number; used: number }>();
  cfg: AuthConfig;
  constructor(cfg: AuthConfig) {
    this.cfg = cfg;
  }

  /** POST /auth/token: RFC 6749 answers, not the envelope (the authorization server is no part of the interface). */
  async token(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const send = (status: number, body: unknown, extra: Record<string, string> = {}) => {
      res.writeHead(status, {
        'Content-Type': 'application/json',
        'Cache-Control': 'no-store',
        Pragma: 'no-cache',
        ...extra,
      });
      res.end(JSON.stringify(body));
    };
    const basic = /^Basic\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
    if (!basic?.[1]) {
      return send(
        401,
        { error: 'invalid_client', error_description: 'client authentication required: client_secret_basic' },
        { 'WWW-Authenticate': 'Basic realm="fern"' },
      );
    }
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    const id = decodeURIComponent(decoded.slice(0, i));
    const secret = decodeURIComponent(decoded.slice(i + 1));
    if (i < 0 || id !== this.cfg.clientId || secret !== this.cfg.clientSecret) {
      return send(
        401,
        { error: 'invalid_client', error_description: 'unknown client or wrong secret' },
        { 'WWW-Authenticate': 'Basic realm="fern"' },
      );
    }
    if (form.get('grant_type') !== 'client_credentials') {
      return send(400, { error: 'unsupported_grant_type', error_description: 'only client_credentials' });
    }
    const token = randomBytes(32).toString('base64url');
    this.tokens.set(token, {
      access: { clientId: id, tenants: this.cfg.tenants },
      expires: Date.now() + this.cfg.tokenLifetimeS * 1000,
    });
    send(200, {
      access_token: token,
      token_type: 'Bearer',
      expires_in: this.cfg.tokenLifetimeS,
      scope: 'connections webhooks audit',
    });
  }

  private bearer(req: IncomingMessage) {
    const m = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''));
    const t = m?.[1] ? this.tokens.get(m[1]) : undefined;
    return { sent: Boolean(m), entry: t };
  }

  /** Counts the call in its access's window (or the caller address's when no valid token came) and sets the headers. */
  private count(ctx: Ctx, key: string) {
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.cfg.windowMs) {
      w = { start: now, used: 0 };
      this.windows.set(key, w);
    }
    w.used += 1;
    const remaining = Math.max(0, this.cfg.rateLimit - w.used);
    const resetS = Math.max(1, Math.ceil((w.start + this.cfg.windowMs - now) / 1000));
    ctx.headers['X-RateLimit-Limit'] = String(this.cfg.rateLimit);
    ctx.headers['X-RateLimit-Remaining'] = String(remaining);
    ctx.headers['X-RateLimit-Reset'] = String(resetS);
    if (w.used > this.cfg.rateLimit) {
      ctx.headers['Retry-After'] = String(resetS);
      throw new ApiError(
        'rate_limited',
        'Too many requests',
        `limit ${this.cfg.rateLimit} calls per ${this.cfg.windowMs / 1000} s for this access`,
        `retry after ${resetS} s`,
      );
    }
  }

  /** Service-Version: mandatory (missing or unknown: 400) unless configured optional (unknown still 400). */
  checkVersion(ctx: Ctx) {
    const sv = ctx.req.headers['service-version'];
    const asked = typeof sv === 'string' ? sv.trim() : undefined;
    if (asked === undefined ? !this.cfg.versionOptional : !VERSIONS.includes(asked)) {
      throw new ApiError(
        'invalid_request',
        asked === undefined ? 'Service-Version header missing' : 'Unknown Service-Version',
        asked === undefined
          ? 'header.Service-Version: field required'
          : `header.Service-Version: must be one of ${VERSIONS.join(', ')}`,
        `Send Service-Version: ${VERSIONS[0]} (the earlier ${VERSIONS[1]} is still accepted)`,
      );
    }
  }

  /** The guard of every authenticated endpoint; returns the access and the tenant of the call. */
  guard(ctx: Ctx): { access: Access; tenant: string } {
    const { sent, entry } = this.bearer(ctx.req);
    const valid = entry && entry.expires > Date.now() ? entry : undefined;
    this.count(ctx, valid ? `client:${valid.access.clientId}` : `addr:${ctx.req.socket.remoteAddress ?? '?'}`);
    if (!valid) {
      throw new ApiError(
        'unauthorized',
        sent ? 'Invalid or expired access token' : 'Not authenticated',
        undefined,
        'Request a new access token at /auth/token (client_secret_basic) and send it as Authorization: Bearer',
      );
    }
    this.checkVersion(ctx);
    const tenant = ctx.req.headers['x-service-tenant'];
    if (typeof tenant !== 'string' || tenant.trim() === '') {
      throw new ApiError(
        'invalid_request',
        'Tenant header missing',
        'header.x-service-tenant: field required',
        'Send x-service-tenant with your tenant identifier',
      );
    }
    if (!valid.access.tenants.includes(tenant)) {
      throw new ApiError(
        'forbidden',
        'This access is not released for the tenant',
        undefined,
        'Check the permissions of the access',
      );
    }
    return { access: valid.access, tenant };
  }
}
