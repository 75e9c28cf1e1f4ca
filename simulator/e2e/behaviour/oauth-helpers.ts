import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { readResult, type Target } from '../harness.ts';

/** The API call the OAuth tests use to try a token. */
export const INFO_PATH = '/api/public/v1/info';

/** The public mobile client's registered redirect URI in the fixtures. */
export const MOBILE_REDIRECT = 'http://127.0.0.1:8976/callback';

/** A fixture client's sandbox secret (the fixtures are the one place that shows it in full). */
export function secretOf(t: Target, clientId: string): string {
  const secret = t.sandbox.state.fixtures.clients.find((c) => c.id === clientId)?.secret;
  if (!secret) throw new Error(`no secret for ${clientId} in the fixtures`);
  return secret;
}

export const basicAuth = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

export interface OAuthResult {
  status: number;
  headers: Headers;
  json: any;
  text: string;
}

/** POSTs a form to an endpoint of the authorization server (default the token endpoint). */
export async function oauthPost(
  t: Target,
  params: Record<string, string>,
  opts: { basic?: [string, string]; path?: string; headers?: Record<string, string> } = {},
): Promise<OAuthResult> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', ...opts.headers };
  if (opts.basic) headers.authorization = basicAuth(...opts.basic);
  return readResult(
    await t.fetch(`${t.baseUrl}${opts.path ?? '/oauth/token'}`, {
      method: 'POST',
      headers,
      body: new URLSearchParams(params).toString(),
    }),
  ) as Promise<OAuthResult>;
}

/** An access token by client credentials (client_secret_basic). */
export async function clientToken(t: Target, clientId: string, scope?: string): Promise<string> {
  const res = await oauthPost(
    t,
    { grant_type: 'client_credentials', ...(scope !== undefined ? { scope } : {}) },
    { basic: [clientId, secretOf(t, clientId)] },
  );
  if (res.status !== 200) throw new Error(`token for ${clientId}: ${res.status} ${res.text}`);
  return res.json.access_token;
}

/** A PKCE verifier and its S256 challenge. */
export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Calls the authorize endpoint without following the redirect; `params` of the redirect, if any. */
export async function authorize(t: Target, query: Record<string, string>) {
  const res = await t.fetch(`${t.baseUrl}/oauth/authorize?${new URLSearchParams(query)}`, { redirect: 'manual' });
  const location = res.headers.get('location');
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    location: location ? new URL(location) : undefined,
    params: location ? new URL(location).searchParams : new URLSearchParams(),
    json: text.startsWith('{') ? JSON.parse(text) : undefined,
    text,
  };
}

/** Asserts an RFC 6749 error answer: status, code, a description, no-store, and no API envelope. */
export function expectOAuthError(
  res: OAuthResult,
  error: string,
  status = error === 'invalid_client' ? 401 : 400,
): string {
  expect(res.status, res.text).toBe(status);
  expect(res.json).toMatchObject({ error, error_description: expect.any(String) });
  expect(res.json.ok).toBeUndefined();
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  if (status === 401) expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
  return res.json.error_description;
}
