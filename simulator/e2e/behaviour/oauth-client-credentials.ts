import { expect, it } from 'vitest';
import { client, type Target } from '../harness.ts';
import { expectFailure, expectSuccess } from './expect-envelope.ts';
import { authorize, clientToken, INFO_PATH, oauthPost, secretOf } from './oauth-helpers.ts';

/**
 * Client credentials: tokens by client_secret_basic and client_secret_post, service accounts, environments,
 * and expiry on the simulator clock.
 */
export function oauthClientCredentialsBehaviour(get: () => Target) {
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
      const data = expectSuccess(await client(t).call('GET', INFO_PATH, { token: res.json.access_token }));
      expect(data.client.id).toBe('harbour-backend');
    }
    expect(basic.json.scope.split(' ')).toContain('connections:write');
    expect(post.json.scope).toBe('catalog:read');
    expect(basic.json.access_token).not.toBe(post.json.access_token);
  });

  it('service accounts get tokens for their one tenant only', async () => {
    const t = get();
    const token = await clientToken(t, 'svc-alpine-sync');
    const data = expectSuccess(await client(t).call('GET', INFO_PATH, { token, tenant: 'alpine-bistro' }));
    expect(data.client).toMatchObject({
      id: 'svc-alpine-sync',
      type: 'service-account',
      owner: expect.stringMatching(/@example\.com$/),
    });
    expectFailure(await client(t).call('GET', INFO_PATH, { token, tenant: 'harbour-kitchens' }), 'forbidden');
    const res = await authorize(t, { response_type: 'code', client_id: 'svc-alpine-sync' });
    expect(res.status).toBe(400);
    expect(res.location).toBeUndefined();
  });

  it('a token issued for another environment -> 401 with an environment hint', async () => {
    const t = get();
    const token = await clientToken(t, 'pilot-backend');
    const err = expectFailure(
      await client(t).call('GET', INFO_PATH, { token, tenant: 'harbour-kitchens' }),
      'unauthorized',
    );
    expect(err.hint).toMatch(/sandbox environment/);
  });

  it('tokens expire on the simulator clock and are renewed, not extended', async () => {
    const t = get();
    const token = await clientToken(t, 'catalog-reader');
    const api = client(t);
    expectSuccess(await api.call('GET', INFO_PATH, { token }));
    t.sandbox.state.clock.advance(900_000);
    try {
      const res = await api.call('GET', INFO_PATH, { token });
      expect(expectFailure(res, 'unauthorized').detail).toMatch(/expired/);
      expect(res.headers.get('www-authenticate')).toMatch(/invalid_token/);
      expectSuccess(await api.call('GET', INFO_PATH, { token: await clientToken(t, 'catalog-reader') }));
    } finally {
      t.sandbox.state.clock.reset();
    }
  });
}
