import { expect, it } from 'vitest';
import { client, type Target } from '../harness.ts';
import { expectFailure, expectSuccess } from './expect-envelope.ts';
import {
  authorize,
  clientToken,
  expectOAuthError,
  INFO_PATH,
  MOBILE_REDIRECT,
  oauthPost,
  pkcePair,
  secretOf,
} from './oauth-helpers.ts';

/**
 * Revocation (RFC 7009): access tokens and whole refresh families.
 */
export function oauthRevocationBehaviour(get: () => Target) {
  it('revocation (RFC 7009): access tokens and whole refresh families; unknown tokens answered 200', async () => {
    const t = get();
    const secret = secretOf(t, 'harbour-backend');
    const token = await clientToken(t, 'harbour-backend');
    const api = client(t);
    expectSuccess(await api.call('GET', INFO_PATH, { token }));
    // Another client cannot revoke it, and is not told whether it exists.
    const foreign = await oauthPost(
      t,
      { token },
      { path: '/oauth/revoke', basic: ['alpine-backend', secretOf(t, 'alpine-backend')] },
    );
    expect(foreign.status).toBe(200);
    expectSuccess(await api.call('GET', INFO_PATH, { token }));
    const revoked = await oauthPost(
      t,
      { token, token_type_hint: 'access_token' },
      { path: '/oauth/revoke', basic: ['harbour-backend', secret] },
    );
    expect(revoked.status).toBe(200);
    expectFailure(await api.call('GET', INFO_PATH, { token }), 'unauthorized');
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
      (await oauthPost(t, { token: grant.json.refresh_token, client_id: 'harbour-mobile' }, { path: '/oauth/revoke' }))
        .status,
    ).toBe(200);
    expectFailure(await api.call('GET', INFO_PATH, { token: grant.json.access_token }), 'unauthorized');
    expectOAuthError(
      await oauthPost(t, {
        grant_type: 'refresh_token',
        client_id: 'harbour-mobile',
        refresh_token: grant.json.refresh_token,
      }),
      'invalid_grant',
    );
  });
}
