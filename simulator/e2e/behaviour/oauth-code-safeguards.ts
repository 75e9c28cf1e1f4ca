import { expect, it } from 'vitest';
import type { Target } from '../harness.ts';
import { authorize, expectOAuthError, MOBILE_REDIRECT, oauthPost, pkcePair, secretOf } from './oauth-helpers.ts';

/**
 * What protects a code: mandatory S256 PKCE, exact redirect URIs (a loopback IP's port aside), a 60-second life
 * and binding to its client.
 */
export function oauthCodeSafeguardsBehaviour(get: () => Target) {
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
      'http://127.0.0.1:8976/callback#f',
      'http://127.0.0.1:8976/x/../callback',
      'http://user@127.0.0.1:8976/callback',
      'http://127.0.0.1:53122/callback/',
      'http://127.0.0.1:0/callback',
      // `localhost` is a name, not a loopback IP literal: its port stays exact.
      'http://localhost:53122/callback',
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

  it('a loopback IP redirect URI may name any port (OAuth 2.1 8.4.2): the code goes there and is bound to it', async () => {
    const t = get();
    const { verifier, challenge } = pkcePair();
    // A native app listening on the port the system handed it, not the registered 8976.
    const ephemeral = 'http://127.0.0.1:53122/callback';
    const q = {
      response_type: 'code',
      client_id: 'harbour-mobile',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    const res = await authorize(t, { ...q, redirect_uri: ephemeral, state: 'p1' });
    expect(res.status).toBe(302);
    expect(`${res.location?.origin}${res.location?.pathname}`).toBe(ephemeral);
    expect(res.params.get('state')).toBe('p1');
    const code = res.params.get('code')!;
    expect(code).toBeTruthy();
    const exchange = (codeOf: string, redirect_uri: string) =>
      oauthPost(t, {
        grant_type: 'authorization_code',
        client_id: 'harbour-mobile',
        code: codeOf,
        redirect_uri,
        code_verifier: verifier,
      });
    // The exchange repeats the URI the request named, not the registered one.
    expectOAuthError(await exchange(code, MOBILE_REDIRECT), 'invalid_grant');
    const second = await authorize(t, { ...q, redirect_uri: ephemeral });
    const token = await exchange(second.params.get('code') ?? '', ephemeral);
    expect(token.status).toBe(200);
    expect(token.json.access_token).toMatch(/^ncs_at_/);
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
}
