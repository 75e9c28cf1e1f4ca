import { describe, expect, it } from 'vitest';
import { client, type Target } from '../harness.ts';
import { expectFailure, expectSuccess } from './expect-envelope.ts';

export function authAndErrorBehaviour(get: () => Target) {
  describe('authentication and errors', () => {
    const providers = '/api/public/v1/providers';

    it('missing, malformed and unknown tokens -> 401 unauthorized', async () => {
      const api = client(get());
      expectFailure(await api.call('GET', providers, { token: false }), 'unauthorized');
      expectFailure(
        await api.call('GET', providers, { token: false, headers: { authorization: 'Basic abc' } }),
        'unauthorized',
      );
      const res = await api.call('GET', providers, { token: 'ncs_at_not-a-real-token' });
      expectFailure(res, 'unauthorized');
      expect(res.text).not.toContain('ncs_at_not-a-real-token');
    });

    it('an expired token -> 401 with a hint to renew (simulator clock)', async () => {
      const t = get();
      const { token } = t.sandbox.issueToken(undefined, 60);
      const api = client(t);
      expectSuccess(await api.call('GET', providers, { token }));
      t.sandbox.state.clock.advance(61_000);
      try {
        const err = expectFailure(await api.call('GET', providers, { token }), 'unauthorized');
        expect(err.detail).toMatch(/expired/);
      } finally {
        t.sandbox.state.clock.reset();
      }
    });

    it('a token of another environment -> 401 naming the environment', async () => {
      const t = get();
      const { token } = t.sandbox.issueToken('pilot-backend');
      const err = expectFailure(
        await client(t).call('GET', providers, { token, tenant: 'harbour-kitchens' }),
        'unauthorized',
      );
      expect(err.detail).toMatch(/pilot/);
      expect(err.hint).toMatch(/sandbox/);
    });

    it('an expired access -> 401 naming the responsible person', async () => {
      const t = get();
      const { token } = t.sandbox.issueToken('retired-backend');
      const err = expectFailure(await client(t).call('GET', providers, { token }), 'unauthorized');
      expect(err.hint).toMatch(/@example\.com/);
    });

    it('missing tenant header -> 400; tenant not released -> 403', async () => {
      const api = client(get());
      const err = expectFailure(await api.call('GET', providers, { tenant: false }), 'invalid_request');
      expect(err.detail).toMatch(/x-service-tenant/);
      expectFailure(await api.call('GET', providers, { tenant: 'alpine-bistro' }), 'forbidden');
      expectFailure(await api.call('GET', providers, { tenant: 'no-such-tenant' }), 'forbidden');
    });

    it('header names are case-insensitive', async () => {
      const api = client(get());
      const res = await api.call('GET', providers, {
        token: false,
        tenant: false,
        headers: { AUTHORIZATION: `Bearer ${api.token}`, 'X-Service-Tenant': api.tenant },
      });
      expectSuccess(res);
    });

    it('a missing scope -> 403 forbidden naming it', async () => {
      const t = get();
      const { token } = await t.sandbox.state.tokens.issue({
        clientId: 'harbour-backend',
        tenants: ['harbour-kitchens'],
        scopes: ['connections:read'],
        environment: 'sandbox',
      });
      const err = expectFailure(await client(t).call('GET', providers, { token }), 'forbidden');
      expect(err.detail).toMatch(/catalog:read/);
    });

    it('credentials sent from a browser (Origin + Authorization) -> 403; no CORS headers anywhere', async () => {
      const api = client(get());
      const err = expectFailure(
        await api.call('GET', providers, { headers: { origin: 'https://shop.example' } }),
        'forbidden',
      );
      expect(err.hint).toMatch(/backend/);
      const pub = await api.call('GET', '/api/public/v1', {
        token: false,
        headers: { origin: 'https://shop.example' },
      });
      expect(pub.status).toBe(200);
      for (const res of [pub, await api.call('GET', providers)]) {
        expect([...res.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
      }
      const preflight = await api.call('OPTIONS', providers, {
        token: false,
        tenant: false,
        headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      expectFailure(preflight, 'not_found');
    });

    it('unknown path -> 404; wrong method -> 404 with an Allow header', async () => {
      const api = client(get());
      expectFailure(await api.call('GET', '/api/public/v1/nothing-here'), 'not_found');
      const res = await api.call('DELETE', providers);
      expectFailure(res, 'not_found');
      expect(res.headers.get('allow')).toBe('GET');
      expect((await api.call('PUT', '/api/public/v1/capabilities')).headers.get('allow')).toBe('GET, POST');
    });

    it('Service-Version: served versions, and 400 for an unknown one', async () => {
      const api = client(get());
      const old = await api.call('GET', providers, { headers: { 'service-version': '2026-06-12' } });
      expect(old.status).toBe(200);
      expect(old.json.meta.version).toBe('2026-06-12');
      const err = expectFailure(
        await api.call('GET', providers, { headers: { 'service-version': '2031-01-01' } }),
        'invalid_request',
      );
      expect(err.hint).toContain('2026-07-01');
      expect(err.hint).toContain('2026-06-12');
    });

    it('every response carries meta.requestId (= X-Request-Id), version and at; ids are unique', async () => {
      const api = client(get());
      const ids = new Set<string>();
      for (const path of ['/api/public/v1', providers, '/api/public/v1/nope']) {
        const res = await api.call('GET', path);
        expect(res.json.meta.requestId).toBe(res.headers.get('x-request-id'));
        expect(Number.isNaN(Date.parse(res.json.meta.at))).toBe(false);
        ids.add(res.json.meta.requestId);
      }
      expect(ids.size).toBe(3);
    });

    it('the alternate base URL answers the same', async () => {
      const api = client(get());
      const main = await api.call('GET', '/api/public/v1/connectors?category=pos');
      const alt = await api.call('GET', '/api/public/v1/connectors?category=pos', { base: 'alt' });
      expect(alt.status).toBe(200);
      expect(alt.json.data).toEqual(main.json.data);
      expectFailure(await api.call('GET', providers, { base: 'alt', token: false }), 'unauthorized');
    });
  });
}
