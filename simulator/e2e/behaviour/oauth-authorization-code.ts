import { expect, it } from 'vitest';
import { client, type Target } from '../harness.ts';
import { expectFailure, expectSuccess } from './expect-envelope.ts';
import { authorize, expectOAuthError, INFO_PATH, MOBILE_REDIRECT, oauthPost, pkcePair } from './oauth-helpers.ts';

/**
 * Authorization code with PKCE: the code exchange, refresh rotation, and reuse revoking the whole family.
 */
export function oauthAuthorizationCodeBehaviour(get: () => Target) {
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
    expectSuccess(await api.call('GET', INFO_PATH, { token: first.json.access_token }));
    expectOAuthError(await oauthPost(t, exchange), 'invalid_grant');
    // Replaying the code revoked what it produced.
    expectFailure(await api.call('GET', INFO_PATH, { token: first.json.access_token }), 'unauthorized');
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
    expectSuccess(await api.call('GET', INFO_PATH, { token: second.json.access_token }));
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
    expectFailure(await api.call('GET', INFO_PATH, { token: second.json.access_token }), 'unauthorized');
    expectFailure(await api.call('GET', INFO_PATH, { token: first.json.access_token }), 'unauthorized');
  });
}
