// Helpers of the round-7 attacks (attacks-round7.e2e.test.ts): the authorization-code flow with PKCE,
// token calls, and the checks every refused call must pass. Loopback only.
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';

export const MOBILE = { id: 'harbour-mobile', redirect: 'http://127.0.0.1:8976/callback' };
export const INTEGRATOR = {
  id: 'network-integrator',
  secret: 'ni-sandbox-secret-3b7d9e2f0a6c4851',
  redirect: 'http://127.0.0.1:8977/callback',
};
export const BACKEND = { id: 'harbour-backend', secret: 'hk-sandbox-secret-5f2c9a7e1b3d4c60' };

export type Failure = { ok: false; error: { code: string; message: string; detail?: string; hint?: string } };
type Json = Record<string, unknown>;

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** GET /oauth/authorize with these parameters; the answer unfollowed. */
export function authorize(base: string, params: Record<string, string>): Promise<Response> {
  return fetch(`${base}/oauth/authorize?${new URLSearchParams(params)}`, { redirect: 'manual' });
}

/** A code for the public client (or the integrator with `client`), with its verifier. */
export async function codeFor(
  base: string,
  client: { id: string; redirect: string } = MOBILE,
  extra: Record<string, string> = {},
): Promise<{ code: string; verifier: string; location: URL }> {
  const { verifier, challenge } = pkce();
  const res = await authorize(base, {
    response_type: 'code',
    client_id: client.id,
    redirect_uri: client.redirect,
    state: 'st',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });
  expect(res.status, await peek(res)).toBe(302);
  const location = new URL(res.headers.get('location') ?? '');
  return { code: location.searchParams.get('code') ?? '', verifier, location };
}

const peek = async (res: Response) => (res.status === 302 ? '' : await res.clone().text());

/** POST /oauth/token with a form; `auth` an Authorization header value. */
export async function token(
  base: string,
  form: Record<string, string>,
  auth?: string,
): Promise<{ status: number; json: Json; text: string }> {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(auth ? { authorization: auth } : {}) },
    body: new URLSearchParams(form),
  });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text) as Json, text };
}

/** A full public-client sign-in: access and refresh token. */
export async function signIn(base: string): Promise<{ access: string; refresh: string }> {
  const { code, verifier } = await codeFor(base);
  const t = await token(base, {
    grant_type: 'authorization_code',
    client_id: MOBILE.id,
    code,
    redirect_uri: MOBILE.redirect,
    code_verifier: verifier,
  });
  expect(t.status, t.text).toBe(200);
  return { access: String(t.json.access_token), refresh: String(t.json.refresh_token) };
}

/** An RFC 6749 error: the status, the error code, a description, and none of `secrets` echoed. */
export function oauthError(
  t: { status: number; json: Json; text: string },
  status: number,
  error: string,
  secrets: string[] = [],
) {
  expect(t.status, t.text).toBe(status);
  expect(t.json.error, t.text).toBe(error);
  expect(t.json.error_description, t.text).toBeTruthy();
  for (const secret of secrets) expect(t.text).not.toContain(secret);
}

/** The failure envelope: status, code, a message and a hint, no stack, none of `secrets` echoed. */
export async function failure(res: Response, status: number, code: string, secrets: string[] = []): Promise<Failure> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  const json = JSON.parse(text) as Failure;
  expect(json.ok, text).toBe(false);
  expect(json.error.code, text).toBe(code);
  expect(json.error.message, text).toBeTruthy();
  expect(json.error.hint, text).toBeTruthy();
  expect(text).not.toMatch(/\n\s+at |node:internal|TypeError|SyntaxError/);
  for (const secret of secrets) expect(text).not.toContain(secret);
  return json;
}

/** A JSON call with bearer (and tenant) headers. */
export function call(
  base: string,
  method: string,
  path: string,
  bearer: string,
  opts: { tenant?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  return fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      ...(opts.tenant ? { 'x-service-tenant': opts.tenant } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...opts.headers,
    },
    body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
  });
}

export const key = () => `r7-${randomBytes(8).toString('hex')}`;
