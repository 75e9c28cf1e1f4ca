// What an access may do: the hand-written token service (client credentials issue PASETO-like opaque
// tokens, "v4.local.…", introspected against the token table on every call; RFC 8414 metadata says where
// to ask) and the rate of its calls (token buckets per access and tenant).

import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { State } from './state.ts';
import { ApiError, randomToken, readBody } from './util.ts';

export const TOKEN_PATH = '/oauth2/v1/token';

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  const extra: Record<string, string> = status === 401 ? { 'www-authenticate': 'Basic realm="olive"' } : {};
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...extra });
  res.end(JSON.stringify({ error, error_description: description }));
}

export async function tokenEndpoint(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST', 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'invalid_request', error_description: 'use POST' }));
    return;
  }
  const form = new URLSearchParams(await readBody(req));
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, colon));
    secret = decodeURIComponent(decoded.slice(colon + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    oauthError(res, 400, 'unsupported_grant_type', 'only client_credentials is offered');
    return;
  }
  if (id !== state.clientId || !sameSecret(secret, state.clientSecret)) {
    oauthError(res, 401, 'invalid_client', 'client authentication failed');
    return;
  }
  const token = `v4.local.${randomToken(32)}`;
  const lifetime = state.options.tokenLifetimeS;
  state.tokens.set(token, { clientId: id, expiresAt: Date.now() + lifetime * 1000 });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
  res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: lifetime, scope: 'connections' }));
}

export function metadata(origin: string): unknown {
  return {
    issuer: origin,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: ['connections'],
  };
}

/** Introspects the bearer token; throws 401 unauthorized when missing, unknown or expired. */
export function introspect(state: State, req: IncomingMessage): { clientId: string; token: string; expiresAt: number } {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  const token = m?.[1];
  const row = token ? state.tokens.get(token) : undefined;
  if (!token || !row || row.expiresAt <= Date.now()) {
    if (token && row) state.tokens.delete(token);
    throw new ApiError(
      401,
      'unauthorized',
      'the call was not signed in',
      token ? 'token unknown or expired' : 'Authorization: Bearer token missing',
      {
        'www-authenticate': 'Bearer realm="olive"',
      },
    );
  }
  return { clientId: row.clientId, token, expiresAt: row.expiresAt };
}

// golang.org/x/time/rate in miniature: one token bucket per access (client) and tenant. The burst is
// X-RateLimit-Limit; the bucket refills completely within windowMs.

interface Bucket {
  tokens: number;
  last: number;
}

export function createLimiter(state: State) {
  const buckets = new Map<string, Bucket>();
  const burst = state.options.rateLimit;
  const perMs = burst / state.options.windowMs;
  return {
    /** Takes one token; answers the headers to send, or throws 429 rate_limited. */
    take(key: string): Record<string, string> {
      const t = Date.now();
      const b = buckets.get(key) ?? { tokens: burst, last: t };
      b.tokens = Math.min(burst, b.tokens + (t - b.last) * perMs);
      b.last = t;
      buckets.set(key, b);
      if (b.tokens < 1) {
        const wait = Math.max(1, Math.ceil((1 - b.tokens) / perMs / 1000));
        throw new ApiError(429, 'rate_limited', 'too many calls in a short time', `retry after ${wait} s`, {
          'x-ratelimit-limit': String(burst),
          'x-ratelimit-remaining': '0',
          'retry-after': String(wait),
        });
      }
      b.tokens -= 1;
      // X-RateLimit-Reset (not in the contract): seconds until the bucket is full again.
      const reset = String(Math.ceil((burst - b.tokens) / perMs / 1000));
      return {
        'x-ratelimit-limit': String(burst),
        'x-ratelimit-remaining': String(Math.floor(b.tokens)),
        'x-ratelimit-reset': reset,
      };
    },
  };
}
