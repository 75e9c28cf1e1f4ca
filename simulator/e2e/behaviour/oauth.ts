import { describe, expect, it } from 'vitest';
import { client, type Target } from '../harness.ts';
import { expectFailure, expectSuccess } from './expect-envelope.ts';
import { authorize, clientToken, expectOAuthError, oauthPost, pkcePair, secretOf } from './oauth-helpers.ts';

const MOBILE_REDIRECT = 'http://127.0.0.1:8976/callback';

export function oauthBehaviour(get: () => Target) {
  describe('OAuth authorization server', () => {
    const info = '/api/public/v1/info';

    it('publishes RFC 8414 metadata for the origin it was called on', async () => {
      const t = get();
      for (const base of [t.baseUrl, t.altBaseUrl]) {
        const res = await t.fetch(`${base}/.well-known/oauth-authorization-server`);
        expect(res.status).toBe(200);
        const meta = await res.json();
        expect(meta).toMatchObject({
          issuer: base,
          token_endpoint: `${base}/oauth/token`,
          authorization_endpoint: `${base}/oauth/authorize`,
          revocation_endpoint: `${base}/oauth/revoke`,
          code_challenge_methods_supported: ['S256'],
          grant_types_supported: expect.arrayContaining(['client_credentials', 'authorization_code', 'refresh_token']),
          token_endpoint_auth_methods_supported: expect.arrayContaining([
            'client_secret_basic',
            'client_secret_post',
            'none',
          ]),
        });
      }
      // The self-description names the same endpoints.
      const auth = (await (await t.fetch(`${t.baseUrl}/api/public/v1`)).json()).data.authentication;
      const meta = await (await t.fetch(`${t.baseUrl}${auth.metadata}`)).json();
      expect(`${t.baseUrl}${auth.tokenEndpoint}`).toBe(meta.token_endpoint);
      expect(`${t.baseUrl}${auth.authorizationEndpoint}`).toBe(meta.authorization_endpoint);
      expect(`${t.baseUrl}${auth.revocationEndpoint}`).toBe(meta.revocation_endpoint);
    });

    it('client credentials by client_secret_basic and client_secret_post give working, short-lived tokens', async () => {
      const t = get();
      const secret = secretOf(t, 'harbour-backend');
      const basic = await oauthPost(t, { grant_type: 'client_credentials' }, { basic: ['harbour-backend', secret] });
      const post = await oauthPost(t, {
        grant_type: 'client_credentials',
        client_id: 'harbour-backend',
        client_secret: secret,
        scope: 'catalog:read',
      });
      for (const res of [basic, post]) {
        expect(res.status, res.text).toBe(200);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.json).toMatchObject({
          token_type: 'Bearer',
          expires_in: 900,
          tenants: ['harbour-kitchens'],
          environment: 'sandbox',
        });
        expect(res.json.refresh_token).toBeUndefined();
        const data = expectSuccess(await client(t).call('GET', info, { token: res.json.access_token }));
        expect(data.client.id).toBe('harbour-backend');
      }
      expect(basic.json.scope.split(' ')).toContain('connections:write');
      expect(post.json.scope).toBe('catalog:read');
      expect(basic.json.access_token).not.toBe(post.json.access_token);
    });

    it('service accounts get tokens for their one tenant only', async () => {
      const t = get();
      const token = await clientToken(t, 'svc-alpine-sync');
      const data = expectSuccess(await client(t).call('GET', info, { token, tenant: 'alpine-bistro' }));
      expect(data.client).toMatchObject({
        id: 'svc-alpine-sync',
        type: 'service-account',
        owner: expect.stringMatching(/@example\.com$/),
      });
      expectFailure(await client(t).call('GET', info, { token, tenant: 'harbour-kitchens' }), 'forbidden');
      const res = await authorize(t, { response_type: 'code', client_id: 'svc-alpine-sync' });
      expect(res.status).toBe(400);
      expect(res.location).toBeUndefined();
    });

    it('token endpoint errors follow RFC 6749 and never echo a secret', async () => {
      const t = get();
      const secret = secretOf(t, 'harbour-backend');
      const wrong = 'wrong-secret-0123456789abcdef';
      expectOAuthError(await oauthPost(t, {}, { basic: ['harbour-backend', secret] }), 'invalid_request');
      expectOAuthError(
        await oauthPost(t, { grant_type: 'password' }, { basic: ['harbour-backend', secret] }),
        'unsupported_grant_type',
      );
      const bad = await oauthPost(t, { grant_type: 'client_credentials' }, { basic: ['harbour-backend', wrong] });
      expectOAuthError(bad, 'invalid_client');
      expect(bad.text).not.toContain(wrong);
      expectOAuthError(
        await oauthPost(t, { grant_type: 'client_credentials', client_id: 'nobody', client_secret: wrong }),
        'invalid_client',
      );
      expectOAuthError(await oauthPost(t, { grant_type: 'client_credentials' }), 'invalid_client');
      expectOAuthError(
        await oauthPost(
          t,
          { grant_type: 'client_credentials', client_secret: secret },
          { basic: ['harbour-backend', secret] },
        ),
        'invalid_request',
      );
      expectOAuthError(
        await oauthPost(
          t,
          { grant_type: 'client_credentials', scope: 'catalog:read admin:all' },
          { basic: ['catalog-reader', secretOf(t, 'catalog-reader')] },
        ),
        'invalid_scope',
      );
      expectOAuthError(
        await oauthPost(t, { grant_type: 'client_credentials', client_id: 'harbour-mobile' }),
        'unauthorized_client',
      );
      const json = await t.fetch(`${t.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"grant_type":"client_credentials"}',
      });
      expectOAuthError(
        { status: json.status, headers: json.headers, text: '', json: await json.json() },
        'invalid_request',
      );
    });

    it('an expired access is refused at the token endpoint naming who renews it', async () => {
      const t = get();
      const desc = expectOAuthError(
        await oauthPost(
          t,
          { grant_type: 'client_credentials' },
          { basic: ['retired-backend', secretOf(t, 'retired-backend')] },
        ),
        'invalid_client',
      );
      expect(desc).toMatch(/expired/);
      expect(desc).toContain('ada.baker@example.com');
    });

    it('a token issued for another environment -> 401 with an environment hint', async () => {
      const t = get();
      const token = await clientToken(t, 'pilot-backend');
      const err = expectFailure(
        await client(t).call('GET', info, { token, tenant: 'harbour-kitchens' }),
        'unauthorized',
      );
      expect(err.hint).toMatch(/sandbox environment/);
    });

    it('tokens expire on the simulator clock and are renewed, not extended', async () => {
      const t = get();
      const token = await clientToken(t, 'catalog-reader');
      const api = client(t);
      expectSuccess(await api.call('GET', info, { token }));
      t.sandbox.state.clock.advance(900_000);
      try {
        const res = await api.call('GET', info, { token });
        expect(expectFailure(res, 'unauthorized').detail).toMatch(/expired/);
        expect(res.headers.get('www-authenticate')).toMatch(/invalid_token/);
        expectSuccess(await api.call('GET', info, { token: await clientToken(t, 'catalog-reader') }));
      } finally {
        t.sandbox.state.clock.reset();
      }
    });

    it('authorization code with PKCE: sign-in, code, token, refresh with rotation, reuse revokes the family', async () => {
      const t = get();
      const { verifier, challenge } = pkcePair();
      const auth = await authorize(t, {
        response_type: 'code',
        client_id: 'harbour-mobile',
        redirect_uri: MOBILE_REDIRECT,
        scope: 'catalog:read connections:read',
        state: 'st-123',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      expect(auth.status).toBe(302);
      expect(auth.location!.origin + auth.location!.pathname).toBe(MOBILE_REDIRECT);
      expect(auth.params.get('state')).toBe('st-123');
      expect(auth.params.get('iss')).toBe(t.baseUrl);
      const code = auth.params.get('code')!;
      const exchange = {
        grant_type: 'authorization_code',
        client_id: 'harbour-mobile',
        code,
        redirect_uri: MOBILE_REDIRECT,
        code_verifier: verifier,
      };
      const first = await oauthPost(t, exchange);
      expect(first.status, first.text).toBe(200);
      expect(first.json).toMatchObject({
        token_type: 'Bearer',
        scope: 'catalog:read connections:read',
        refresh_token: expect.any(String),
        tenants: ['harbour-kitchens'],
      });
      const api = client(t);
      expectSuccess(await api.call('GET', info, { token: first.json.access_token }));
      expectOAuthError(await oauthPost(t, exchange), 'invalid_grant');
      // Replaying the code revoked what it produced.
      expectFailure(await api.call('GET', info, { token: first.json.access_token }), 'unauthorized');
    });

    it('refresh tokens rotate; a spent one revokes the whole family', async () => {
      const t = get();
      const { verifier, challenge } = pkcePair();
      const auth = await authorize(t, {
        response_type: 'code',
        client_id: 'harbour-mobile',
        redirect_uri: MOBILE_REDIRECT,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      const first = await oauthPost(t, {
        grant_type: 'authorization_code',
        client_id: 'harbour-mobile',
        code: auth.params.get('code')!,
        redirect_uri: MOBILE_REDIRECT,
        code_verifier: verifier,
      });
      const second = await oauthPost(t, {
        grant_type: 'refresh_token',
        client_id: 'harbour-mobile',
        refresh_token: first.json.refresh_token,
      });
      expect(second.status, second.text).toBe(200);
      expect(second.json.refresh_token).not.toBe(first.json.refresh_token);
      const api = client(t);
      expectSuccess(await api.call('GET', info, { token: second.json.access_token }));
      const reuse = await oauthPost(t, {
        grant_type: 'refresh_token',
        client_id: 'harbour-mobile',
        refresh_token: first.json.refresh_token,
      });
      expect(expectOAuthError(reuse, 'invalid_grant')).toMatch(/already used/);
      expectOAuthError(
        await oauthPost(t, {
          grant_type: 'refresh_token',
          client_id: 'harbour-mobile',
          refresh_token: second.json.refresh_token,
        }),
        'invalid_grant',
      );
      expectFailure(await api.call('GET', info, { token: second.json.access_token }), 'unauthorized');
      expectFailure(await api.call('GET', info, { token: first.json.access_token }), 'unauthorized');
    });

    it('PKCE is mandatory for public clients, S256 only, and the verifier must match', async () => {
      const t = get();
      const base = { response_type: 'code', client_id: 'harbour-mobile', redirect_uri: MOBILE_REDIRECT, state: 's1' };
      const none = await authorize(t, base);
      expect(none.status).toBe(302);
      expect(none.params.get('error')).toBe('invalid_request');
      expect(none.params.get('error_description')).toMatch(/PKCE/);
      expect(none.params.get('state')).toBe('s1');
      expect(none.params.get('code')).toBeNull();
      const { verifier, challenge } = pkcePair();
      const plain = await authorize(t, { ...base, code_challenge: verifier, code_challenge_method: 'plain' });
      expect(plain.params.get('error')).toBe('invalid_request');
      expect((await authorize(t, { ...base, code_challenge: challenge })).params.get('error')).toBe('invalid_request');
      const ok = await authorize(t, { ...base, code_challenge: challenge, code_challenge_method: 'S256' });
      const code = ok.params.get('code')!;
      const wrong = pkcePair().verifier;
      expectOAuthError(
        await oauthPost(t, {
          grant_type: 'authorization_code',
          client_id: 'harbour-mobile',
          code,
          redirect_uri: MOBILE_REDIRECT,
          code_verifier: wrong,
        }),
        'invalid_grant',
      );
      // Single use: even the right verifier cannot use a code spent by a failed attempt.
      expectOAuthError(
        await oauthPost(t, {
          grant_type: 'authorization_code',
          client_id: 'harbour-mobile',
          code,
          redirect_uri: MOBILE_REDIRECT,
          code_verifier: verifier,
        }),
        'invalid_grant',
      );
      const again = (
        await authorize(t, { ...base, code_challenge: challenge, code_challenge_method: 'S256' })
      ).params.get('code')!;
      expectOAuthError(
        await oauthPost(t, {
          grant_type: 'authorization_code',
          client_id: 'harbour-mobile',
          code: again,
          redirect_uri: MOBILE_REDIRECT,
        }),
        'invalid_grant',
      );
    });

    it('redirect URIs must match exactly; otherwise an error page, never a redirect', async () => {
      const t = get();
      const { challenge } = pkcePair();
      for (const redirect_uri of [
        'http://127.0.0.1:8976/callback/',
        'http://127.0.0.1:8976/callback?x=1',
        'https://attacker.example/cb',
      ]) {
        const res = await authorize(t, {
          response_type: 'code',
          client_id: 'harbour-mobile',
          redirect_uri,
          code_challenge: challenge,
          code_challenge_method: 'S256',
        });
        expect(res.status).toBe(400);
        expect(res.location).toBeUndefined();
        expect(res.json.error).toBe('invalid_request');
      }
      expect(
        (await authorize(t, { response_type: 'code', client_id: 'no-such-client', redirect_uri: MOBILE_REDIRECT }))
          .status,
      ).toBe(400);
    });

    it('codes live 60 seconds on the simulator clock and stay bound to their client', async () => {
      const t = get();
      const { verifier, challenge } = pkcePair();
      const q = {
        response_type: 'code',
        client_id: 'harbour-mobile',
        redirect_uri: MOBILE_REDIRECT,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      };
      const code = (await authorize(t, q)).params.get('code')!;
      const other = await oauthPost(
        t,
        { grant_type: 'authorization_code', code, redirect_uri: MOBILE_REDIRECT, code_verifier: verifier },
        { basic: ['harbour-backend', secretOf(t, 'harbour-backend')] },
      );
      expect(expectOAuthError(other, 'invalid_grant')).toMatch(/another client/);
      t.sandbox.state.clock.advance(61_000);
      try {
        const late = await oauthPost(t, {
          grant_type: 'authorization_code',
          client_id: 'harbour-mobile',
          code,
          redirect_uri: MOBILE_REDIRECT,
          code_verifier: verifier,
        });
        expect(expectOAuthError(late, 'invalid_grant')).toMatch(/expired/);
      } finally {
        t.sandbox.state.clock.reset();
      }
    });

    it('a confidential client acting for a person gets the tenants both are released for', async () => {
      const t = get();
      const redirect = 'http://127.0.0.1:8977/callback';
      const auth = await authorize(t, {
        response_type: 'code',
        client_id: 'network-integrator',
        redirect_uri: redirect,
        login_hint: 'luis-ferrer',
      });
      const res = await oauthPost(
        t,
        { grant_type: 'authorization_code', code: auth.params.get('code')!, redirect_uri: redirect },
        { basic: ['network-integrator', secretOf(t, 'network-integrator')] },
      );
      expect(res.status, res.text).toBe(200);
      expect(res.json.tenants).toEqual(['alpine-bistro']);
      const api = client(t);
      expectSuccess(await api.call('GET', info, { token: res.json.access_token, tenant: 'alpine-bistro' }));
      expectFailure(
        await api.call('GET', info, { token: res.json.access_token, tenant: 'harbour-kitchens' }),
        'forbidden',
      );
      const denied = await authorize(t, {
        response_type: 'code',
        client_id: 'harbour-backend',
        redirect_uri: 'http://127.0.0.1:8975/callback',
        login_hint: 'luis-ferrer',
        state: 'z',
      });
      expect(denied.params.get('error')).toBe('access_denied');
      expect(denied.params.get('state')).toBe('z');
    });

    it('the consent page names application, account and rights; deny -> access_denied', async () => {
      const t = get();
      const redirect = 'http://127.0.0.1:8975/callback';
      const page = await authorize(t, {
        response_type: 'code',
        client_id: 'harbour-backend',
        redirect_uri: redirect,
        scope: 'catalog:read',
        prompt: 'consent',
        state: 'c1',
      });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      expect(page.text).toContain('Harbour Kitchens backend');
      expect(page.text).toContain('ada.baker@example.com');
      expect(page.text).toContain('catalog:read');
      const form = {
        response_type: 'code',
        client_id: 'harbour-backend',
        redirect_uri: redirect,
        scope: 'catalog:read',
        state: 'c1',
      };
      for (const [consent, key] of [
        ['deny', 'error'],
        ['allow', 'code'],
      ] as const) {
        const res = await t.fetch(`${t.baseUrl}/oauth/authorize`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ ...form, consent }).toString(),
        });
        expect(res.status).toBe(302);
        const back = new URL(res.headers.get('location')!).searchParams;
        expect(back.get(key), consent).toBeTruthy();
        expect(back.get('state')).toBe('c1');
        if (consent === 'deny') expect(back.get('error')).toBe('access_denied');
      }
    });

    it('revocation (RFC 7009): access tokens and whole refresh families; unknown tokens answered 200', async () => {
      const t = get();
      const secret = secretOf(t, 'harbour-backend');
      const token = await clientToken(t, 'harbour-backend');
      const api = client(t);
      expectSuccess(await api.call('GET', info, { token }));
      // Another client cannot revoke it, and is not told whether it exists.
      const foreign = await oauthPost(
        t,
        { token },
        { path: '/oauth/revoke', basic: ['alpine-backend', secretOf(t, 'alpine-backend')] },
      );
      expect(foreign.status).toBe(200);
      expectSuccess(await api.call('GET', info, { token }));
      const revoked = await oauthPost(
        t,
        { token, token_type_hint: 'access_token' },
        { path: '/oauth/revoke', basic: ['harbour-backend', secret] },
      );
      expect(revoked.status).toBe(200);
      expectFailure(await api.call('GET', info, { token }), 'unauthorized');
      expect(
        (await oauthPost(t, { token: 'ncs_at_unknown' }, { path: '/oauth/revoke', basic: ['harbour-backend', secret] }))
          .status,
      ).toBe(200);
      expectOAuthError(await oauthPost(t, { token }, { path: '/oauth/revoke' }), 'invalid_client');
      expectOAuthError(
        await oauthPost(t, {}, { path: '/oauth/revoke', basic: ['harbour-backend', secret] }),
        'invalid_request',
      );

      const { verifier, challenge } = pkcePair();
      const code = (
        await authorize(t, {
          response_type: 'code',
          client_id: 'harbour-mobile',
          redirect_uri: MOBILE_REDIRECT,
          code_challenge: challenge,
          code_challenge_method: 'S256',
        })
      ).params.get('code')!;
      const grant = await oauthPost(t, {
        grant_type: 'authorization_code',
        client_id: 'harbour-mobile',
        code,
        redirect_uri: MOBILE_REDIRECT,
        code_verifier: verifier,
      });
      expect(
        (
          await oauthPost(
            t,
            { token: grant.json.refresh_token, client_id: 'harbour-mobile' },
            { path: '/oauth/revoke' },
          )
        ).status,
      ).toBe(200);
      expectFailure(await api.call('GET', info, { token: grant.json.access_token }), 'unauthorized');
      expectOAuthError(
        await oauthPost(t, {
          grant_type: 'refresh_token',
          client_id: 'harbour-mobile',
          refresh_token: grant.json.refresh_token,
        }),
        'invalid_grant',
      );
    });

    it('unknown OAuth paths -> 404 and wrong methods -> 405, in RFC 6749 shape', async () => {
      const t = get();
      const missing = await t.fetch(`${t.baseUrl}/oauth/introspect`);
      expect(missing.status).toBe(404);
      expect((await missing.json()).error).toBeTruthy();
      const method = await t.fetch(`${t.baseUrl}/oauth/token`);
      expect(method.status).toBe(405);
      expect(method.headers.get('allow')).toBe('POST');
    });
  });
}
