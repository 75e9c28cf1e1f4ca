import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../app/serve.ts';
import {
  authorize,
  BACKEND,
  basic,
  call,
  INTEGRATOR,
  MOBILE,
  oauthError,
  pkce,
  signIn,
  token,
} from './attacks-round7-helpers.ts';
import { admin, api, useServer } from './attacks-round7-server.ts';

// Hardening round 7 (see attacks-round7.e2e.test.ts): refresh rotation races, revocation, secrets echoed, bounds.
let s: RunningServer;
useServer((server) => {
  s = server;
});

describe('attacks round 7: refresh rotation and revocation', () => {
  it('two refreshes of one token at once: at most one new pair', async () => {
    const { refresh } = await signIn(s.baseUrl);
    const form = { grant_type: 'refresh_token', client_id: MOBILE.id, refresh_token: refresh };
    const both = await Promise.all([token(s.baseUrl, form), token(s.baseUrl, form), token(s.baseUrl, form)]);
    expect(both.filter((t) => t.status === 200).length).toBeLessThanOrEqual(1);
    for (const t of both.filter((t) => t.status !== 200)) oauthError(t, 400, 'invalid_grant', [refresh]);
  });

  it('reuse of a spent refresh token revokes the newest one and its access token', async () => {
    const { refresh } = await signIn(s.baseUrl);
    const form = { grant_type: 'refresh_token', client_id: MOBILE.id, refresh_token: refresh };
    const next = await token(s.baseUrl, form);
    oauthError(await token(s.baseUrl, form), 400, 'invalid_grant', [refresh]);
    const newest = await token(s.baseUrl, { ...form, refresh_token: String(next.json.refresh_token) });
    oauthError(newest, 400, 'invalid_grant');
    const res = await call(s.baseUrl, 'GET', '/api/public/v1/connections', String(next.json.access_token), {
      tenant: s.tenant,
    });
    expect(res.status).toBe(401);
  });

  it('a refresh after the refresh token was revoked: invalid_grant', async () => {
    const { refresh, access } = await signIn(s.baseUrl);
    const rev = await fetch(`${s.baseUrl}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: MOBILE.id, token: refresh }),
    });
    expect(rev.status).toBe(200);
    oauthError(
      await token(s.baseUrl, { grant_type: 'refresh_token', client_id: MOBILE.id, refresh_token: refresh }),
      400,
      'invalid_grant',
    );
    expect((await call(s.baseUrl, 'GET', '/api/public/v1/connections', access, { tenant: s.tenant })).status).toBe(401);
  });

  it("another client's refresh token, and a wider scope, are refused", async () => {
    const { refresh } = await signIn(s.baseUrl);
    oauthError(
      await token(
        s.baseUrl,
        { grant_type: 'refresh_token', refresh_token: refresh },
        basic(INTEGRATOR.id, INTEGRATOR.secret),
      ),
      400,
      'invalid_grant',
      [refresh],
    );
    const wider = await token(s.baseUrl, {
      grant_type: 'refresh_token',
      client_id: MOBILE.id,
      refresh_token: refresh,
      scope: 'admin:everything',
    });
    expect(wider.status).toBe(400);
    expect(wider.json.error).toBe('invalid_scope');
  });

  it("revoking another client's access token with one's own credentials leaves it working (RFC 7009 2.1)", async () => {
    const { access } = await signIn(s.baseUrl);
    const rev = await fetch(`${s.baseUrl}/oauth/revoke`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(BACKEND.id, BACKEND.secret),
      },
      body: new URLSearchParams({ token: access, token_type_hint: 'refresh_token' }),
    });
    expect(rev.status).toBe(200);
    expect((await call(s.baseUrl, 'GET', '/api/public/v1/connections', access, { tenant: s.tenant })).status).toBe(200);
  });

  it('revoke without any client authentication: refused (a found token must not be revocable by anyone)', async () => {
    const { access } = await signIn(s.baseUrl);
    const rev = await fetch(`${s.baseUrl}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: access }),
    });
    expect([400, 401]).toContain(rev.status);
    expect(await rev.text()).not.toContain(access);
    expect((await call(s.baseUrl, 'GET', '/api/public/v1/connections', access, { tenant: s.tenant })).status).toBe(200);
  });
});

describe('attacks round 7: echoes and bounds', () => {
  it('a token pasted into the path, the tenant or a control-plane id is never echoed (did not hold: client report, receiver check)', async () => {
    const pasted = s.token;
    for (const res of [
      await api('GET', `/api/public/v1/connections/${pasted}`),
      await call(s.baseUrl, 'GET', '/api/public/v1/connections', s.token, { tenant: pasted }),
      await api('POST', '/api/public/v1/connections', {
        body: { connectorId: pasted },
        headers: { 'idempotency-key': `x${'y'.repeat(200)}` },
      }),
      await admin(`/_sandbox/client-report?client=${pasted}`),
      await admin('/_sandbox/receiver-check', 'POST', { webhookId: pasted }),
    ]) {
      const text = await res.text();
      expect(text, res.url).not.toContain(pasted);
    }
  });

  it.each([
    ['a 10-character challenge', 'a'.repeat(10)],
    ['a 200-character challenge', 'a'.repeat(200)],
    ['a challenge with + and /', `${'a'.repeat(41)}+/`],
  ])('authorize with %s: refused (error redirect), no code', async (_, challenge) => {
    const res = await authorize(s.baseUrl, {
      response_type: 'code',
      client_id: MOBILE.id,
      redirect_uri: MOBILE.redirect,
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const where = new URL(res.headers.get('location') ?? 'http://x/');
    expect(where.searchParams.get('code')).toBeNull();
    expect(where.searchParams.get('error') ?? String(res.status)).toMatch(/invalid_request|400/);
  });

  it('authorize asking a scope the client does not have: invalid_scope, no code', async () => {
    const { challenge } = pkce();
    const res = await authorize(s.baseUrl, {
      response_type: 'code',
      client_id: MOBILE.id,
      redirect_uri: MOBILE.redirect,
      state: 's',
      scope: 'webhooks:write admin:root',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const where = new URL(res.headers.get('location') ?? 'http://x/');
    expect(where.searchParams.get('error')).toBe('invalid_scope');
    expect(where.searchParams.get('state')).toBe('s');
  });

  it('the client report after 600 calls from 200 tokens of one client stays small (bounded evidence)', async () => {
    const tokens = await Promise.all(
      Array.from({ length: 200 }, () =>
        token(s.baseUrl, { grant_type: 'client_credentials' }, basic(BACKEND.id, BACKEND.secret)).then((t) =>
          String(t.json.access_token),
        ),
      ),
    );
    for (let round = 0; round < 3; round++)
      await Promise.all(
        tokens.map((tk) => call(s.baseUrl, 'GET', '/api/public/v1/connections/con_missing', tk, { tenant: s.tenant })),
      );
    const res = await admin(`/_sandbox/client-report?client=${BACKEND.id}`);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text.length).toBeLessThan(200_000);
    for (const tk of tokens.slice(0, 5)) expect(text).not.toContain(tk);
  });
});
