import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serve } from '../../app/serve.ts';

const REDIRECT = 'http://127.0.0.1:8976/callback';

/** The public client's refresh token through the authorization code flow with PKCE, over HTTP. */
async function signIn(base: string): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: 'harbour-mobile',
    redirect_uri: REDIRECT,
    scope: 'catalog:read',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const res = await fetch(`${base}/oauth/authorize?${query}`, { redirect: 'manual' });
  const code = new URL(res.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const token = await oauth(base, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
  });
  expect(token.status).toBe(200);
  return token.json.refresh_token;
}

async function oauth(base: string, form: Record<string, string>) {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: 'harbour-mobile', ...form }),
  });
  return { status: res.status, json: await res.json() };
}

const refresh = (base: string, token: string) => oauth(base, { grant_type: 'refresh_token', refresh_token: token });

// With --data-dir a restart keeps the refresh-token families: what a person consented to before it renews
// after it, and reuse detection still holds across it.
describe('refresh tokens across a restart on the same data dir', () => {
  it('the latest refresh token rotates after a restart; a token spent before it revokes the whole grant after it', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'ncs-refresh-')), 'data');
    const first = await serve({ port: 0, dataDir });
    const issued = await signIn(first.baseUrl);
    const rotated = await refresh(first.baseUrl, issued);
    expect(rotated.status).toBe(200);
    await first.close();

    const second = await serve({ port: 0, dataDir });
    try {
      const again = await refresh(second.baseUrl, rotated.json.refresh_token);
      expect(again.status).toBe(200);
      const api = `${second.baseUrl}/api/public/v1/providers`;
      const auth = { authorization: `Bearer ${again.json.access_token}`, 'x-service-tenant': 'harbour-kitchens' };
      expect((await fetch(api, { headers: auth })).status).toBe(200);
      // The token spent before the restart: a reuse, so the grant and every token it issued are revoked.
      const reused = await refresh(second.baseUrl, issued);
      expect(reused.status).toBe(400);
      expect(reused.json.error).toBe('invalid_grant');
      expect((await fetch(api, { headers: auth })).status).toBe(401);
      expect((await refresh(second.baseUrl, again.json.refresh_token)).json.error).toBe('invalid_grant');
    } finally {
      await second.close();
    }
  }, 30_000);
});
