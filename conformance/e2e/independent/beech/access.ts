// Access control: who calls (Doorkeeper-like client credentials) and how often (a Rack::Attack-like throttle).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from './http-kit.ts';
import type { Beech } from './state.ts';
// Doorkeeper-like authorization server: client credentials at /oauth/token (basic or post), RFC 8414 metadata,
// opaque bearer tokens with Doorkeeper's `created_at` in the token answer.

export const TOKEN_TTL_S = 7200;

export interface Client {
  id: string;
  secret: string;
  tenants: string[];
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function tokenError(res: ServerResponse, status: number, error: string, description: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify({ error, error_description: description }));
}

export async function tokenEndpoint(
  s: Beech,
  client: Client,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const form = new URLSearchParams(await readBody(req));
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
  if (basic?.[1] !== undefined) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const at = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, at));
    secret = decodeURIComponent(decoded.slice(at + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    tokenError(res, 400, 'unsupported_grant_type', 'only client_credentials is enabled for this application');
    return;
  }
  if (!same(id, client.id) || !same(secret, client.secret)) {
    tokenError(res, 401, 'invalid_client', 'Client authentication failed');
    return;
  }
  const token = randomBytes(32).toString('base64url');
  s.tokens.set(token, { clientId: client.id, expiresAt: Date.now() + TOKEN_TTL_S * 1000 });
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(
    JSON.stringify({
      access_token: token,
      token_type: 'Bearer',
      expires_in: TOKEN_TTL_S,
      scope: 'public',
      created_at: Math.floor(Date.now() / 1000),
    }),
  );
}

export function metadata(origin: string): Record<string, unknown> {
  return {
    issuer: origin,
    token_endpoint: `${origin}/oauth/token`,
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    grant_types_supported: ['client_credentials'],
    scopes_supported: ['public'],
  };
}

/** The client of a valid bearer token, or undefined. */
export function bearer(s: Beech, header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  if (m?.[1] === undefined) return undefined;
  const t = s.tokens.get(m[1]);
  if (t === undefined || t.expiresAt < Date.now()) return undefined;
  return t.clientId;
}

// Rack::Attack-like fixed-window throttle: "req/access" keyed by client, tenant and environment; calls without a
// valid token are throttled "req/ip" (ten times the limit) so they carry the same headers.

interface Window {
  start: number;
  count: number;
}
const windows = new WeakMap<Beech, Map<string, Window>>();

export interface ThrottleResult {
  limited: boolean;
  headers: Record<string, string>;
}

export function throttle(s: Beech, key: string, limit: number): ThrottleResult {
  const now = Date.now();
  const period = s.options.windowMs;
  // Rack::Attack aligns windows to the epoch: the window is floor(now / period).
  const start = Math.floor(now / period) * period;
  let table = windows.get(s);
  if (table === undefined) {
    table = new Map();
    windows.set(s, table);
  }
  let w = table.get(key);
  if (w === undefined || w.start !== start) {
    w = { start, count: 0 };
    table.set(key, w);
  }
  w.count += 1;
  const remaining = Math.max(0, limit - w.count);
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(remaining),
  };
  const limited = w.count > limit;
  if (limited) headers['Retry-After'] = String(Math.max(1, Math.ceil((start + period - now) / 1000)));
  return { limited, headers };
}
