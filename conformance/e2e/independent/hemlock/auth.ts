// The authorization server side (client credentials, client_secret_post only) and the bearer check of
// every authenticated call. OAuth errors follow RFC 6749 §5.2 (not the interface's envelope: the token
// endpoint is the authorization server's, not part of /api/public/v1).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, header, readBody } from './http-kit.ts';
import type { State } from './state.ts';

export const TOKEN_PATH = '/auth/oauth/token';
export const METADATA_PATH = '/.well-known/oauth-authorization-server';

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="hemlock", error="invalid_client"';
  res.writeHead(status, headers);
  res.end(JSON.stringify({ error, error_description: description }));
}

const same = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export async function handleToken(req: IncomingMessage, res: ServerResponse, state: State): Promise<void> {
  if (req.method !== 'POST') return oauthError(res, 405, 'invalid_request', 'Use POST.');
  const form = new URLSearchParams(await readBody(req).catch(() => ''));
  // client_secret_basic is deliberately not supported: credentials travel in the form body only.
  if (header(req, 'authorization') !== undefined) {
    return oauthError(
      res,
      401,
      'invalid_client',
      'Only client_secret_post is supported: send client_id and client_secret in the form body.',
    );
  }
  const id = form.get('client_id') ?? '';
  const secret = form.get('client_secret') ?? '';
  if (!same(id, state.clientId) || !same(secret, state.clientSecret)) {
    return oauthError(res, 401, 'invalid_client', 'Unknown client or wrong secret.');
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return oauthError(res, 400, 'unsupported_grant_type', 'Only client_credentials is supported.');
  }
  const ttl = state.options.tokenTtlS;
  const token = `hmk_at_${randomBytes(24).toString('base64url')}`;
  state.tokens.set(token, { clientId: id, expiresAt: Date.now() + ttl * 1000 });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
  res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: ttl, scope: 'connections:write' }));
}

export function handleMetadata(res: ServerResponse, issuer: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      issuer,
      token_endpoint: `${issuer}${TOKEN_PATH}`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_post'],
      response_types_supported: [],
    }),
  );
}

const unauthorized = (detail: string): ApiError =>
  new ApiError({
    status: 401,
    code: 'unauthorized',
    message: 'The call was not signed in.',
    detail,
    hint: 'Request a new access token (client credentials) and send it as Authorization: Bearer <token>.',
  });

/** Returns the client id behind a valid bearer token, or throws 401. */
export function authenticate(req: IncomingMessage, state: State): string {
  const auth = header(req, 'authorization');
  if (auth === undefined) throw unauthorized('The Authorization header is missing.');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  if (!m?.[1]) throw unauthorized('The Authorization header is not a bearer token.');
  const t = state.tokens.get(m[1]);
  if (!t) throw unauthorized('The token is unknown.');
  if (t.expiresAt <= Date.now()) {
    state.tokens.delete(m[1]);
    throw unauthorized('The token has expired.');
  }
  return t.clientId;
}

/** Returns the tenant the call applies to, or throws 400 (missing) / 403 (not released or unknown). */
export function tenantOf(req: IncomingMessage, state: State): string {
  const tenant = header(req, 'x-service-tenant');
  if (tenant === undefined || tenant.trim() === '') {
    throw new ApiError({
      status: 400,
      code: 'invalid_request',
      message: 'The request is incomplete or unsuitable.',
      detail: 'The x-service-tenant header is missing.',
    });
  }
  const t = state.tenants.find((x) => x.id === tenant);
  if (!t?.released) {
    throw new ApiError({
      status: 403,
      code: 'forbidden',
      message: 'This access may not perform the action.',
      detail: 'The access is not released for this tenant.',
      hint: 'Check the permissions of the access and the x-service-tenant header.',
    });
  }
  return tenant;
}
