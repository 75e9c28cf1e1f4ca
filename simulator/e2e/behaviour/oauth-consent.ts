import { expect, it } from 'vitest';
import { client, type Target } from '../harness.ts';
import { expectFailure, expectSuccess } from './expect-envelope.ts';
import { authorize, INFO_PATH, oauthPost, secretOf } from './oauth-helpers.ts';

/**
 * Signing in for a person: the tenants both client and person are released for, and the consent page.
 */
export function oauthConsentBehaviour(get: () => Target) {
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
    expectSuccess(await api.call('GET', INFO_PATH, { token: res.json.access_token, tenant: 'alpine-bistro' }));
    expectFailure(
      await api.call('GET', INFO_PATH, { token: res.json.access_token, tenant: 'harbour-kitchens' }),
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
}
