import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../app/serve.ts';
import {
  authorize,
  basic,
  call,
  codeFor,
  INTEGRATOR,
  MOBILE,
  oauthError,
  pkce,
  token,
} from './attacks-round7-helpers.ts';
import { admin, exchange, useServer } from './attacks-round7-server.ts';

// Hardening round 7: attacks over real HTTP (loopback only), different in kind from rounds 4-6. This file:
// the authorization-code flow with PKCE. Refresh, revocation and echoes: attacks-round7-tokens; clock, runs,
// client report, receiver check: attacks-round7-control; webhooks, versions, keys, inspector: attacks-round7-api;
// fixtures files, data dirs and MSW: attacks-round7-files.
let s: RunningServer;
useServer((server) => {
  s = server;
});

describe('attacks round 7: authorization code and PKCE', () => {
  it('a code used twice: invalid_grant, and the tokens of its first use are revoked', async () => {
    const { code, verifier } = await codeFor(s.baseUrl);
    const first = await exchange(code, verifier);
    expect(first.status).toBe(200);
    oauthError(await exchange(code, verifier), 400, 'invalid_grant', [code]);
    const res = await call(s.baseUrl, 'GET', '/api/public/v1/connections', String(first.json.access_token), {
      tenant: s.tenant,
    });
    expect(res.status).toBe(401);
  });

  it('a code exchanged under another redirect_uri (another loopback port, a trailing slash, a query): invalid_grant', async () => {
    for (const redirect of ['http://127.0.0.1:9999/callback', `${MOBILE.redirect}/`, `${MOBILE.redirect}?x=1`]) {
      const { code, verifier } = await codeFor(s.baseUrl);
      oauthError(await exchange(code, verifier, { redirect_uri: redirect }), 400, 'invalid_grant', [code]);
    }
  });

  it('a code exchanged without redirect_uri although the request named one: invalid_grant or invalid_request', async () => {
    const { code, verifier } = await codeFor(s.baseUrl);
    const t = await token(s.baseUrl, {
      grant_type: 'authorization_code',
      client_id: MOBILE.id,
      code,
      code_verifier: verifier,
    });
    expect([400]).toContain(t.status);
    expect(['invalid_grant', 'invalid_request']).toContain(t.json.error);
  });

  it("code injection: the public client's code exchanged by the confidential client is invalid_grant", async () => {
    const { code, verifier } = await codeFor(s.baseUrl);
    const t = await token(
      s.baseUrl,
      { grant_type: 'authorization_code', code, redirect_uri: MOBILE.redirect, code_verifier: verifier },
      basic(INTEGRATOR.id, INTEGRATOR.secret),
    );
    oauthError(t, 400, 'invalid_grant', [code, INTEGRATOR.secret]);
    // and the rightful client can no longer be sure: at least it must not be served twice
    const again = await exchange(code, verifier);
    expect([200, 400]).toContain(again.status);
  });

  it('PKCE downgrade: a code asked with a challenge, exchanged without a verifier', async () => {
    const { code } = await codeFor(s.baseUrl);
    const t = await exchange(code, undefined);
    expect(t.status).toBe(400);
    expect(['invalid_grant', 'invalid_request']).toContain(t.json.error);
  });

  it('PKCE injection: a confidential code asked without a challenge, exchanged with a verifier, is invalid_grant', async () => {
    const res = await authorize(s.baseUrl, {
      response_type: 'code',
      client_id: INTEGRATOR.id,
      redirect_uri: INTEGRATOR.redirect,
      state: 'x',
    });
    expect(res.status).toBe(302);
    const code = new URL(res.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const t = await token(
      s.baseUrl,
      { grant_type: 'authorization_code', code, redirect_uri: INTEGRATOR.redirect, code_verifier: pkce().verifier },
      basic(INTEGRATOR.id, INTEGRATOR.secret),
    );
    oauthError(t, 400, 'invalid_grant', [code]);
  });

  it.each([
    ['the wrong verifier', () => pkce().verifier],
    ['a 42-character verifier', () => 'a'.repeat(42)],
    ['a 129-character verifier', () => 'a'.repeat(129)],
    ['a verifier with spaces and %', () => `${'a'.repeat(43)} %`],
  ])('%s: refused, never a token', async (_, make) => {
    const { code } = await codeFor(s.baseUrl);
    const t = await exchange(code, make());
    expect(t.status).toBe(400);
    expect(['invalid_grant', 'invalid_request']).toContain(t.json.error);
    expect(t.text).not.toContain('ncs_at_');
  });

  it('code_challenge_method=plain and a missing challenge for the public client are refused at authorize', async () => {
    const cases: Record<string, string>[] = [{ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, {}];
    for (const extra of cases) {
      const res = await authorize(s.baseUrl, {
        response_type: 'code',
        client_id: MOBILE.id,
        redirect_uri: MOBILE.redirect,
        state: 's',
        ...extra,
      });
      const location = new URL(res.headers.get('location') ?? 'http://x/');
      expect(res.status).toBe(302);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('code')).toBeNull();
    }
  });

  it.each([
    'https://evil.example/callback',
    'http://127.0.0.1:8976@evil.example/callback',
    'http://127.0.0.1:8976/callback/../../evil',
    'http://127.0.0.1:8976/callback#frag',
    'http://localhost:9999/callback',
    'http://127.0.0.2:8976/callback',
    'http://[::1]:8976/callback',
    'HTTP://127.0.0.1:8976/callback',
    'http://127.0.0.1:8976/Callback',
    'javascript:alert(1)//127.0.0.1:8976/callback',
  ])('redirect_uri %s: no redirect (a 400 page), no code anywhere', async (redirect) => {
    const { challenge } = pkce();
    const res = await authorize(s.baseUrl, {
      response_type: 'code',
      client_id: MOBILE.id,
      redirect_uri: redirect,
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const body = await res.text();
    expect(res.status, `${redirect} -> ${res.headers.get('location')}`).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(body).not.toContain('ncs_ac_');
  });

  it('a state with CRLF, quotes and HTML is carried encoded in the Location, never splits a header', async () => {
    const state = 'a\r\nSet-Cookie: evil=1\r\n"><script>alert(1)</script>';
    const { location } = await codeFor(s.baseUrl, MOBILE, { state });
    expect(location.searchParams.get('state')).toBe(state);
  });

  it('a 20 KB state is refused (or carried whole), never a 500', async () => {
    const { challenge } = pkce();
    const res = await authorize(s.baseUrl, {
      response_type: 'code',
      client_id: MOBILE.id,
      redirect_uri: MOBILE.redirect,
      state: 'x'.repeat(20_000),
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    expect([302, 400]).toContain(res.status);
  });

  it('the consent page escapes HTML in state, login_hint and scope', async () => {
    const { challenge } = pkce();
    const res = await authorize(s.baseUrl, {
      response_type: 'code',
      client_id: MOBILE.id,
      redirect_uri: MOBILE.redirect,
      state: '"><script>alert(1)</script>',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      prompt: 'consent',
    });
    const body = await res.text();
    expect(res.status).toBe(200);
    expect(body).not.toContain('<script>alert(1)</script>');
    expect(res.headers.get('content-security-policy') ?? res.headers.get('x-frame-options')).toBeTruthy();
  });

  it('response_type=token (implicit) and an unknown client: refused, the unknown client never redirected to', async () => {
    const implicit = await authorize(s.baseUrl, {
      response_type: 'token',
      client_id: MOBILE.id,
      redirect_uri: MOBILE.redirect,
      state: 's',
    });
    expect(implicit.status).toBe(302);
    expect(new URL(implicit.headers.get('location') ?? '').searchParams.get('error')).toBe('unsupported_response_type');
    const unknown = await authorize(s.baseUrl, {
      response_type: 'code',
      client_id: 'nobody<b>',
      redirect_uri: 'https://evil.example/',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('location')).toBeNull();
    expect(await unknown.text()).not.toContain('<b>');
  });

  it('redirect_uri given twice: refused without a redirect', async () => {
    const res = await fetch(
      `${s.baseUrl}/oauth/authorize?response_type=code&client_id=${MOBILE.id}&redirect_uri=${encodeURIComponent(MOBILE.redirect)}&redirect_uri=https%3A%2F%2Fevil.example%2F&code_challenge=${pkce().challenge}&code_challenge_method=S256`,
      { redirect: 'manual' },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it('a code is dead 61 s later on the sandbox clock', async () => {
    const { code, verifier } = await codeFor(s.baseUrl);
    expect((await admin('/_sandbox/clock/advance', 'POST', { seconds: 61 })).status).toBe(200);
    oauthError(await exchange(code, verifier), 400, 'invalid_grant', [code]);
  });

  it('a login_hint naming nobody, or HTML, gives an error redirect or page, never a code for someone else', async () => {
    const { challenge } = pkce();
    const res = await authorize(s.baseUrl, {
      response_type: 'code',
      client_id: MOBILE.id,
      redirect_uri: MOBILE.redirect,
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      login_hint: '<img src=x onerror=alert(1)>',
    });
    const where = res.headers.get('location') ?? '';
    expect(where).not.toContain('code=');
    expect(await res.text()).not.toContain('<img src=x');
  });
});
