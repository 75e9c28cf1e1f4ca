import { expect, it } from 'vitest';
import type { Target } from '../harness.ts';

/**
 * The authorization server describes itself: RFC 8414 metadata per origin, and RFC 6749-shaped 404/405 for
 * anything else under /oauth.
 */
export function oauthMetadataBehaviour(get: () => Target) {
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

  it('unknown OAuth paths -> 404 and wrong methods -> 405, in RFC 6749 shape', async () => {
    const t = get();
    const missing = await t.fetch(`${t.baseUrl}/oauth/introspect`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toBeTruthy();
    const method = await t.fetch(`${t.baseUrl}/oauth/token`);
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('POST');
  });
}
