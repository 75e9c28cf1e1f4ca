// The authorization server (a Cognito-like user pool domain on its own port) and the bearer check of the
// API (the authorizer). Client credentials only, client_secret_post only (the form body carries the
// secret); no RFC 8414 metadata is published: partners are told the token URL at onboarding.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, header, readRaw } from './http-kit.ts';
import { secret } from './ids.ts';

export const TOKEN_LIFETIME_S = 3600;

export interface Client {
  id: string;
  secret: string;
  tenants: string[];
}

export interface AuthState {
  clients: Client[];
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  /** Tenants that exist (released to some access or not). */
  knownTenants: string[];
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function tokenError(res: ServerResponse, status: number, error: string, description: string): void {
  const body = JSON.stringify({ error, error_description: description });
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(body);
}

/** POST /oauth2/token: grant_type=client_credentials, client_id and client_secret in the form body. */
export async function tokenEndpoint(state: AuthState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://ivy.invalid');
  if (req.method !== 'POST' || url.pathname !== '/oauth2/token') {
    tokenError(res, 404, 'not_found', 'Only POST /oauth2/token is served here.');
    return;
  }
  let raw = '';
  try {
    raw = await readRaw(req);
  } catch {
    tokenError(res, 400, 'invalid_request', 'Body too large.');
    return;
  }
  if (!(header(req, 'content-type') ?? '').startsWith('application/x-www-form-urlencoded')) {
    tokenError(res, 400, 'invalid_request', 'Send an application/x-www-form-urlencoded body.');
    return;
  }
  const form = new URLSearchParams(raw);
  if (form.get('grant_type') !== 'client_credentials') {
    tokenError(res, 400, 'unsupported_grant_type', 'Only client_credentials is supported.');
    return;
  }
  const id = form.get('client_id') ?? '';
  const given = form.get('client_secret') ?? '';
  const client = state.clients.find((c) => c.id === id);
  // client_secret_basic is not enabled for this app client: a Basic header alone is refused like a wrong secret.
  if (!client || !given || !sameText(client.secret, given)) {
    tokenError(res, 401, 'invalid_client', 'Client authentication failed (client_secret_post only).');
    return;
  }
  const token = secret('ivy.', 33);
  state.tokens.set(token, { clientId: client.id, expiresAt: Date.now() + TOKEN_LIFETIME_S * 1000 });
  const body = JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_S });
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  res.end(body);
}

/** The authorizer: the client behind a valid bearer token, or 401. */
export function authenticate(state: AuthState, req: IncomingMessage): Client {
  const value = header(req, 'authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(value);
  if (!match?.[1])
    throw new ApiError('unauthorized', 'A bearer token is required.', undefined, 'Request an access token.');
  const entry = state.tokens.get(match[1]);
  if (!entry || entry.expiresAt <= Date.now()) {
    throw new ApiError(
      'unauthorized',
      'The access token is invalid or expired.',
      undefined,
      'Request a new access token.',
    );
  }
  const client = state.clients.find((c) => c.id === entry.clientId);
  if (!client) throw new ApiError('unauthorized', 'The access token is invalid or expired.');
  return client;
}

/** The tenant header, read before rate counting: missing is 400 (the call names no tenant to count against). */
export function tenantHeader(req: IncomingMessage): string {
  const tenant = header(req, 'x-service-tenant');
  if (!tenant) {
    throw new ApiError(
      'invalid_request',
      'The header x-service-tenant is required.',
      undefined,
      'Name the tenant of the call.',
    );
  }
  return tenant;
}

/** A tenant the access is not released for (or that does not exist) is 403 forbidden. */
export function authorizeTenant(client: Client, tenant: string): void {
  if (!client.tenants.includes(tenant)) {
    throw new ApiError(
      'forbidden',
      'This access is not released for the tenant.',
      undefined,
      'Check the permissions of the access.',
    );
  }
}
