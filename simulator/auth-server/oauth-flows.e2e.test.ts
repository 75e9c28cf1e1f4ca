import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../app/serve.ts';

// The flows as a partner runs them: a standard OAuth client library over real HTTP (loopback).
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const SECRETS = {
  'harbour-backend': 'hk-sandbox-secret-5f2c9a7e1b3d4c60',
  'network-integrator': 'ni-sandbox-secret-3b7d9e2f0a6c4851',
  'svc-harbour-reporting': 'svc-hk-reporting-2d4f6a8c0e1b3d5f',
  'retired-backend': 'rb-sandbox-secret-0f9e8d7c6b5a4321',
};
const MOBILE = { client_id: 'harbour-mobile' } satisfies oauth.Client;
const MOBILE_REDIRECT = 'http://127.0.0.1:8976/callback';

let running: RunningServer;
let as: oauth.AuthorizationServer;

beforeAll(async () => {
  running = await serve({ port: 0 });
  const issuer = new URL(running.baseUrl);
  as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
});
afterAll(() => running?.close());

/** An authenticated API call with a token from the library. */
async function api(token: string, tenant = 'harbour-kitchens', path = '/api/public/v1/info') {
  const res = await oauth
    .protectedResourceRequest(
      token,
      'GET',
      new URL(`${running.baseUrl}${path}`),
      new Headers({ 'x-service-tenant': tenant }),
      null,
      insecure,
    )
    .catch((err: unknown) => {
      if (err instanceof oauth.WWWAuthenticateChallengeError) return err.response;
      throw err;
    });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** Signs the fixture person in through the authorize endpoint and returns the validated callback parameters. */
async function signIn(client: oauth.Client, redirectUri: string, extra: Record<string, string> = {}) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...extra,
  }).toString();
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const callback = new URL(res.headers.get('location')!);
  return { params: oauth.validateAuthResponse(as, client, callback, state), verifier };
}

describe('OAuth flows with oauth4webapi against serve({ port: 0 })', () => {
  it('discovers the server (RFC 8414) with its issuer and S256-only PKCE', () => {
    expect(as.issuer).toBe(running.baseUrl);
    expect(as.token_endpoint).toBe(`${running.baseUrl}/oauth/token`);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
  });

  it('client credentials: client_secret_basic and client_secret_post, then the API', async () => {
    const client = { client_id: 'harbour-backend' };
    for (const auth of [
      oauth.ClientSecretBasic(SECRETS['harbour-backend']),
      oauth.ClientSecretPost(SECRETS['harbour-backend']),
    ]) {
      const res = await oauth.clientCredentialsGrantRequest(
        as,
        client,
        auth,
        { scope: 'catalog:read connections:read' },
        insecure,
      );
      const tokens = await oauth.processClientCredentialsResponse(as, client, res);
      expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 900, scope: 'catalog:read connections:read' });
      const info = await api(tokens.access_token);
      expect(info.status).toBe(200);
      expect(info.body.data).toMatchObject({
        client: { id: 'harbour-backend' },
        scopes: ['catalog:read', 'connections:read'],
      });
      expect(info.headers.get('x-ratelimit-limit')).toBe('1200');
    }
  });

  it('service account: client credentials for its tenant and scopes only', async () => {
    const client = { client_id: 'svc-harbour-reporting' };
    const res = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(SECRETS['svc-harbour-reporting']),
      {},
      insecure,
    );
    const { access_token } = await oauth.processClientCredentialsResponse(as, client, res);
    expect((await api(access_token)).body.data.client.type).toBe('service-account');
    expect((await api(access_token, 'alpine-bistro')).status).toBe(403);
    const refused = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(SECRETS['svc-harbour-reporting']),
      { scope: 'connections:write' },
      insecure,
    );
    await expect(oauth.processClientCredentialsResponse(as, client, refused)).rejects.toMatchObject({
      error: 'invalid_scope',
      status: 400,
    });
  });

  it('wrong secrets and expired accesses: invalid_client with a Basic challenge', async () => {
    const client = { client_id: 'harbour-backend' };
    const wrong = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic('not-the-secret-000000'),
      {},
      insecure,
    );
    const err = await oauth.processClientCredentialsResponse(as, client, wrong).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    expect((err as oauth.WWWAuthenticateChallengeError).status).toBe(401);
    expect((err as oauth.WWWAuthenticateChallengeError).cause[0]!.scheme).toBe('basic');
    const retired = { client_id: 'retired-backend' };
    const expired = await oauth.clientCredentialsGrantRequest(
      as,
      retired,
      oauth.ClientSecretPost(SECRETS['retired-backend']),
      {},
      insecure,
    );
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({
      error: 'invalid_client',
      error_description: expect.stringContaining('ada.baker@example.com'),
    });
  });

  it('authorization code with PKCE for the public client, refresh with rotation, reuse detection', async () => {
    const { params, verifier } = await signIn(MOBILE, MOBILE_REDIRECT, { scope: 'catalog:read stream:read' });
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      MOBILE,
      oauth.None(),
      params,
      MOBILE_REDIRECT,
      verifier,
      insecure,
    );
    const first = await oauth.processAuthorizationCodeResponse(as, MOBILE, res);
    expect(first).toMatchObject({
      token_type: 'bearer',
      scope: 'catalog:read stream:read',
      refresh_token: expect.stringMatching(/^ncs_rt_/),
    });
    expect((await api(first.access_token)).status).toBe(200);

    const rotated = await oauth.processRefreshTokenResponse(
      as,
      MOBILE,
      await oauth.refreshTokenGrantRequest(as, MOBILE, oauth.None(), first.refresh_token!, insecure),
    );
    expect(rotated.refresh_token).not.toBe(first.refresh_token);
    expect(rotated.access_token).not.toBe(first.access_token);
    // Narrowing on refresh is allowed, widening is not.
    const narrow = await oauth.processRefreshTokenResponse(
      as,
      MOBILE,
      await oauth.refreshTokenGrantRequest(as, MOBILE, oauth.None(), rotated.refresh_token!, {
        ...insecure,
        additionalParameters: { scope: 'catalog:read' },
      }),
    );
    expect(narrow.scope).toBe('catalog:read');
    const wide = await oauth.refreshTokenGrantRequest(as, MOBILE, oauth.None(), narrow.refresh_token!, {
      ...insecure,
      additionalParameters: { scope: 'connections:write' },
    });
    await expect(oauth.processRefreshTokenResponse(as, MOBILE, wide)).rejects.toMatchObject({ error: 'invalid_scope' });

    const reuse = await oauth.refreshTokenGrantRequest(as, MOBILE, oauth.None(), first.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(as, MOBILE, reuse)).rejects.toMatchObject({
      error: 'invalid_grant',
      status: 400,
    });
    // The whole family is gone: the newest refresh token and every access token of the grant.
    const after = await oauth.refreshTokenGrantRequest(as, MOBILE, oauth.None(), narrow.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(as, MOBILE, after)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    for (const t of [first, rotated, narrow]) expect((await api(t.access_token)).status).toBe(401);
  });

  it('PKCE refusals: no challenge, plain, wrong verifier, missing verifier', async () => {
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: 'harbour-mobile',
      redirect_uri: MOBILE_REDIRECT,
      state: 'abc',
    }).toString();
    const noPkce = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
    expect(() => oauth.validateAuthResponse(as, MOBILE, noPkce, 'abc')).toThrow(oauth.AuthorizationResponseError);
    expect(noPkce.searchParams.get('error')).toBe('invalid_request');
    url.searchParams.set('code_challenge', oauth.generateRandomCodeVerifier());
    url.searchParams.set('code_challenge_method', 'plain');
    expect(new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!).searchParams.get('error')).toBe(
      'invalid_request',
    );

    const a = await signIn(MOBILE, MOBILE_REDIRECT);
    const wrong = await oauth.authorizationCodeGrantRequest(
      as,
      MOBILE,
      oauth.None(),
      a.params,
      MOBILE_REDIRECT,
      oauth.generateRandomCodeVerifier(),
      insecure,
    );
    await expect(oauth.processAuthorizationCodeResponse(as, MOBILE, wrong)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const b = await signIn(MOBILE, MOBILE_REDIRECT);
    const missing = await oauth.authorizationCodeGrantRequest(
      as,
      MOBILE,
      oauth.None(),
      b.params,
      MOBILE_REDIRECT,
      oauth.nopkce,
      insecure,
    );
    await expect(oauth.processAuthorizationCodeResponse(as, MOBILE, missing)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('confidential client acting for a person: tenants = the person’s ∩ the client’s', async () => {
    const client = { client_id: 'network-integrator' };
    const redirect = 'http://127.0.0.1:8977/callback';
    const { params, verifier } = await signIn(client, redirect, { login_hint: 'ada.baker@example.com' });
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(SECRETS['network-integrator']),
      params,
      redirect,
      verifier,
      insecure,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, res);
    expect(tokens['tenants']).toEqual(['harbour-kitchens']);
    expect((await api(tokens.access_token, 'harbour-kitchens')).status).toBe(200);
    expect((await api(tokens.access_token, 'alpine-bistro')).status).toBe(403);
  });

  it('access tokens expire on the simulator clock; the refresh token renews them', async () => {
    const { params, verifier } = await signIn(MOBILE, MOBILE_REDIRECT);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      MOBILE,
      await oauth.authorizationCodeGrantRequest(as, MOBILE, oauth.None(), params, MOBILE_REDIRECT, verifier, insecure),
    );
    running.sandbox.state.clock.advance(tokens.expires_in! * 1000);
    try {
      const expired = await api(tokens.access_token);
      expect(expired.status).toBe(401);
      expect(expired.body.error.detail).toMatch(/expired/);
      const renewed = await oauth.processRefreshTokenResponse(
        as,
        MOBILE,
        await oauth.refreshTokenGrantRequest(as, MOBILE, oauth.None(), tokens.refresh_token!, insecure),
      );
      expect((await api(renewed.access_token)).status).toBe(200);
    } finally {
      running.sandbox.state.clock.reset();
    }
  });

  it('revocation (RFC 7009) through the library', async () => {
    const client = { client_id: 'harbour-backend' };
    const auth = oauth.ClientSecretBasic(SECRETS['harbour-backend']);
    const { access_token } = await oauth.processClientCredentialsResponse(
      as,
      client,
      await oauth.clientCredentialsGrantRequest(as, client, auth, {}, insecure),
    );
    expect((await api(access_token)).status).toBe(200);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, access_token, insecure));
    expect((await api(access_token)).status).toBe(401);
  });
});
