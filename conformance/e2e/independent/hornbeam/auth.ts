// The authorization server (same origin, like a Worker route /oauth2/token): client credentials, accepted
// as a form (RFC 6749) or as JSON, client authentication by Basic or in the body. Opaque tokens.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { State } from './state.ts';

export const TOKEN_PATH = '/oauth2/token';

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

function parseTokenBody(raw: string, type: string): Record<string, string> | null {
  if (type.includes('application/json')) {
    try {
      const v = JSON.parse(raw) as unknown;
      if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
      const out: Record<string, string> = {};
      for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
      return out;
    } catch {
      return null;
    }
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

/** RFC 6749 §5: 200 with the token, or 400/401 with error and error_description. */
export function tokenEndpoint(
  state: State,
  req: IncomingMessage,
  raw: string,
): { status: number; body: Record<string, unknown> } {
  const form = parseTokenBody(raw, String(req.headers['content-type'] ?? ''));
  if (!form) return { status: 400, body: { error: 'invalid_request', error_description: 'body is not JSON' } };
  let id = form.client_id;
  let secret = form.client_secret;
  const basic = /^Basic (.+)$/i.exec(String(req.headers.authorization ?? ''));
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, i));
    secret = decodeURIComponent(decoded.slice(i + 1));
  }
  if (form.grant_type !== 'client_credentials')
    return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'client_credentials only' } };
  if (!id || !secret || !same(id, state.clientId) || !same(secret, state.clientSecret))
    return { status: 401, body: { error: 'invalid_client', error_description: 'unknown client or wrong secret' } };
  const token = `hbt_${randomBytes(24).toString('base64url')}`;
  state.tokens.set(token, { clientId: id, expiresAt: Date.now() + state.opts.tokenTtlSeconds * 1000 });
  return {
    status: 200,
    body: {
      access_token: token,
      token_type: 'Bearer',
      expires_in: state.opts.tokenTtlSeconds,
      scope: 'connections:write catalog:read',
    },
  };
}

export function metadata(origin: string): Record<string, unknown> {
  return {
    issuer: origin,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    response_types_supported: [],
  };
}

/** The client behind a bearer token in Authorization (never a query parameter), or null. */
export function bearer(state: State, req: IncomingMessage): { clientId: string; token: string } | null {
  const m = /^Bearer ([A-Za-z0-9._~+/=-]+)$/i.exec(String(req.headers.authorization ?? ''));
  if (!m?.[1]) return null;
  const t = state.tokens.get(m[1]);
  if (!t || t.expiresAt <= Date.now()) return null;
  return { clientId: t.clientId, token: m[1] };
}
