import { expect, it } from 'vitest';
import type { Target } from '../harness.ts';
import { expectOAuthError, oauthPost, secretOf } from './oauth-helpers.ts';

/**
 * The token endpoint's refusals: RFC 6749 error answers that never echo a secret, and expired access.
 */
export function oauthTokenErrorsBehaviour(get: () => Target) {
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
}
