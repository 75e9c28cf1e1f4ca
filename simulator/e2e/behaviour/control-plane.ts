import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { Connection } from '../../contract/connections.ts';
import { client, type Target } from '../harness.ts';
import { expectFailure, expectSuccess } from './expect-envelope.ts';

export function controlPlaneBehaviour(get: () => Target) {
  describe('sandbox control plane', () => {
    const admin = (t: Target) => ({ token: t.sandbox.adminToken, tenant: false as const });
    const newConnection = async (t: Target, label: string) =>
      expectSuccess(
        await client(t).call('POST', '/api/public/v1/connections', {
          body: {
            connectorId: 'brassbell-registers-api',
            environment: 'sandbox',
            scopeLabel: `Control ${label}`,
            capabilities: ['orders.read'],
          },
          headers: { 'idempotency-key': `control-${label}-${Date.now()}` },
        }),
        Connection,
      );

    it('needs the admin token: none -> 401, a tenant token -> 403', async () => {
      const t = get();
      const api = client(t);
      expectFailure(await api.call('GET', '/_sandbox', { token: false }), 'unauthorized');
      expectFailure(await api.call('GET', '/_sandbox'), 'forbidden');
      expectFailure(await api.call('GET', '/_sandbox', { token: 'ncs_admin_wrong' }), 'unauthorized');
      const summary = expectSuccess(await api.call('GET', '/_sandbox', admin(t)));
      expect(summary).toMatchObject({ connections: expect.any(Number), faults: [] });
    });

    it('publishes its own valid OpenAPI 3.1 document', async () => {
      const res = await client(get()).call('GET', '/_sandbox/openapi.json', { token: false });
      expect(res.status).toBe(200);
      const result = await new Validator().validate(res.json);
      expect(result.valid, JSON.stringify(result.errors)).toBe(true);
      expect(Object.keys(res.json.paths)).toContain('/_sandbox/faults');
    });

    it('pauses, resumes and revokes a connection; refuses impossible transitions', async () => {
      const t = get();
      const api = client(t);
      const c = await newConnection(t, 'states');
      const set = (state: string) =>
        api.call('POST', `/_sandbox/connections/${c.id}/state`, { ...admin(t), body: { state } });
      expect(expectSuccess(await set('active')).state).toBe('active');
      expect(expectSuccess(await set('paused')).state).toBe('paused');
      expect(expectSuccess(await api.call('GET', `/api/public/v1/connections/${c.id}`), Connection).state).toBe(
        'paused',
      );
      expect(expectSuccess(await set('active')).state).toBe('active');
      expect(expectSuccess(await set('revoked')).state).toBe('revoked');
      expect(expectFailure(await set('active'), 'invalid_request').detail).toMatch(/revoked/);
      expectFailure(await set('sleeping'), 'invalid_request');
      expectFailure(
        await api.call('POST', '/_sandbox/connections/con_nope/state', { ...admin(t), body: { state: 'paused' } }),
        'not_found',
      );
    });

    it('advances the clock: tokens expire, timestamps move', async () => {
      const t = get();
      const api = client(t);
      const { token } = t.sandbox.issueToken(undefined, 120);
      const before = expectSuccess(await api.call('GET', '/_sandbox/clock', admin(t)));
      try {
        const after = expectSuccess(
          await api.call('POST', '/_sandbox/clock/advance', { ...admin(t), body: { seconds: 3600 } }),
        );
        expect(Date.parse(after.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(3600_000);
        expectFailure(await api.call('GET', '/api/public/v1/providers', { token }), 'unauthorized');
        expectFailure(
          await api.call('POST', '/_sandbox/clock/advance', { ...admin(t), body: { seconds: -5 } }),
          'invalid_request',
        );
      } finally {
        t.sandbox.state.clock.reset();
      }
    });

    it('injects 500, 429 with Retry-After and latency into the next N matching calls', async () => {
      const t = get();
      const api = client(t);
      const arm = (fault: object) =>
        expectSuccess(api.call('POST', '/_sandbox/faults', { ...admin(t), body: fault }) as never);
      expectSuccess(
        await api.call('POST', '/_sandbox/faults', {
          ...admin(t),
          body: { kind: 'internal', route: 'listProviders', count: 2 },
        }),
      );
      expectFailure(await api.call('GET', '/api/public/v1/providers'), 'internal');
      expectFailure(await api.call('GET', '/api/public/v1/providers'), 'internal');
      expectSuccess(await api.call('GET', '/api/public/v1/providers'));
      expectSuccess(
        await api.call('POST', '/_sandbox/faults', {
          ...admin(t),
          body: { kind: 'rate_limited', method: 'GET', route: '/api/public/v1/capabilities', retryAfterSeconds: 7 },
        }),
      );
      expectSuccess(
        await api.call('POST', '/api/public/v1/capabilities', {
          body: { connectorId: 'tillcraft-pos-cloud', capability: 'orders.read' },
        }),
      );
      const limited = await api.call('GET', '/api/public/v1/capabilities');
      expectFailure(limited, 'rate_limited');
      expect(limited.headers.get('retry-after')).toBe('7');
      expectSuccess(
        await api.call('POST', '/_sandbox/faults', {
          ...admin(t),
          body: { kind: 'latency', route: 'listCapabilities', latencyMs: 150 },
        }),
      );
      const started = performance.now();
      expectSuccess(await api.call('GET', '/api/public/v1/capabilities'));
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
      expectSuccess(await api.call('POST', '/_sandbox/faults', { ...admin(t), body: { kind: 'internal', count: 5 } }));
      expect(expectSuccess(await api.call('GET', '/_sandbox/faults', admin(t)))).toHaveLength(1);
      expectSuccess(await api.call('DELETE', '/_sandbox/faults', admin(t)));
      expectSuccess(await api.call('GET', '/api/public/v1/providers'));
      void arm;
    });

    it('an injected 500 does not use the idempotency key (the retry succeeds)', async () => {
      const t = get();
      const api = client(t);
      expectSuccess(
        await api.call('POST', '/_sandbox/faults', {
          ...admin(t),
          body: { kind: 'internal', route: 'createConnection' },
        }),
      );
      const call = () =>
        api.call('POST', '/api/public/v1/connections', {
          body: {
            connectorId: 'brassbell-registers-api',
            environment: 'sandbox',
            scopeLabel: 'Retry venue',
            capabilities: ['orders.read'],
          },
          headers: { 'idempotency-key': `retry-after-500-${Date.now()}` },
        });
      expectFailure(await call(), 'internal');
      const ok = await call();
      expectSuccess(ok);
      expect(ok.json.meta.replayed).toBeUndefined();
    });

    it('resets everything to the fixtures', async () => {
      const t = get();
      const api = client(t);
      await newConnection(t, 'reset');
      expect(expectSuccess(await api.call('GET', '/api/public/v1/connections')).count).toBeGreaterThan(0);
      const summary = expectSuccess(await api.call('POST', '/_sandbox/reset', admin(t)));
      expect(summary).toMatchObject({ connections: 0, idempotencyRecords: 0, faults: [] });
      expect(expectSuccess(await api.call('GET', '/api/public/v1/connections')).count).toBe(0);
      expectSuccess(await api.call('GET', '/api/public/v1/providers'));
    });
  });
}
