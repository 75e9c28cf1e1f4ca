// ironwood's OAuth 2.1 client-credentials token endpoint (Entra ID v2 style path /oauth2/v2.0/token,
// client_secret_basic or client_secret_post) and bearer-token checks. Tokens are opaque, 3599 s by default.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { State } from './state.ts';

export const TOKEN_PATH = '/oauth2/v2.0/token';

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="ironwood"';
  res.writeHead(status, headers);
  res.end(JSON.stringify({ error, error_description: description }));
}

export async function tokenEndpoint(
  req: IncomingMessage,
  res: ServerResponse,
  state: State,
  client: { id: string; secret: string },
  lifetimeS: number,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  if (req.method !== 'POST') return oauthError(res, 405, 'invalid_request', 'Use POST.');
  const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const at = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, at));
    secret = decodeURIComponent(decoded.slice(at + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return oauthError(res, 400, 'unsupported_grant_type', 'Only client_credentials is supported.');
  }
  if (!same(id, client.id) || !same(secret, client.secret)) {
    return oauthError(res, 401, 'invalid_client', 'Client authentication failed.');
  }
  const token = randomBytes(32).toString('base64url');
  state.tokens.set(token, { clientId: id, expiresAt: Date.now() + lifetimeS * 1000 });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
  res.end(
    JSON.stringify({ token_type: 'Bearer', expires_in: lifetimeS, ext_expires_in: lifetimeS, access_token: token }),
  );
}

/** The client of a valid bearer token, or undefined (missing, unknown or expired). */
export function bearer(
  state: State,
  authorization: string | undefined,
): { token: string; clientId: string } | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const token = m?.[1];
  if (token === undefined) return undefined;
  const t = state.tokens.get(token);
  if (!t) return undefined;
  if (t.expiresAt <= Date.now()) {
    state.tokens.delete(token);
    return undefined;
  }
  return { token, clientId: t.clientId };
}

export const METADATA_PATH = '/.well-known/oauth-authorization-server';

/** RFC 8414 authorization server metadata, so a client finds the token endpoint and its methods. */
export function metadata(res: ServerResponse, issuer: string, tokenUrl: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      issuer,
      token_endpoint: tokenUrl,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    }),
  );
}
