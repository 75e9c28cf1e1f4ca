import { describe, expect, it } from 'vitest';
import { Connection, ConnectionsData } from '../../contract/connections.ts';
import { IdempotencyKeyResult } from '../../contract/idempotency.ts';
import { client, type Target } from '../harness.ts';
import { expectFailure, expectSuccess } from './expect-envelope.ts';

let seq = 0;
const uniqueKey = (label: string) => `test-${label}-${Date.now().toString(36)}-${++seq}`;
const body = (over: Record<string, unknown> = {}) => ({
  connectorId: 'tillcraft-pos-cloud',
  environment: 'sandbox',
  scopeLabel: 'Harbour Kitchens Quay Street',
  capabilities: ['orders.read', 'payments.refund'],
  ...over,
});

export function connectionBehaviour(get: () => Target) {
  describe('connections and idempotency', () => {
    const path = '/api/public/v1/connections';
    const create = (
      api: ReturnType<typeof client>,
      key: string | undefined,
      b: unknown = body(),
      extra: Record<string, unknown> = {},
    ) => api.call('POST', path, { body: b, headers: key === undefined ? {} : { 'idempotency-key': key }, ...extra });

    it('creates a connection with catalog flags, a state, a nextStep and createdAt', async () => {
      const api = client(get());
      const key = uniqueKey('create');
      const res = await create(api, key);
      const c = expectSuccess(res, Connection);
      expect(c).toMatchObject({
        connectorId: 'tillcraft-pos-cloud',
        environment: 'sandbox',
        scopeLabel: 'Harbour Kitchens Quay Street',
        state: 'pending',
      });
      expect(c.capabilities).toEqual([
        { capability: 'orders.read', critical: false, idempotencyRequired: false },
        { capability: 'payments.refund', critical: true, idempotencyRequired: true },
      ]);
      expect(c.nextStep).toMatch(/activation/);
      expect(res.json.meta.idempotencyKey).toBe(key);
      expect(res.json.meta.replayed).toBeUndefined();
      const list = expectSuccess(await api.call('GET', path), ConnectionsData);
      expect(list.tenant).toBe('harbour-kitchens');
      expect(list.connections.map((x) => x.id)).toContain(c.id);
      expect(expectSuccess(await api.call('GET', `${path}/${c.id}`), Connection).id).toBe(c.id);
    });

    it('pending turns active after the activation delay (simulator clock)', async () => {
      const t = get();
      const api = client(t);
      const c = expectSuccess(await create(api, uniqueKey('activate')), Connection);
      t.sandbox.control.advanceClock(t.sandbox.state.activationDelayMs / 1000);
      try {
        const now = expectSuccess(await api.call('GET', `${path}/${c.id}`), Connection);
        expect(now.state).toBe('active');
        expect(now.nextStep).toMatch(/capabilities/);
      } finally {
        t.sandbox.state.clock.reset();
      }
    });

    it('missing key -> 428; malformed key -> 400; validation first never uses the key', async () => {
      const api = client(get());
      expectFailure(await create(api, undefined), 'idempotency_required');
      expectFailure(await create(api, 'short'), 'invalid_request');
      expectFailure(await create(api, 'has space in it'), 'invalid_request');
      expectFailure(await create(api, 'x'.repeat(129)), 'invalid_request');
      const key = uniqueKey('validation');
      expectFailure(await create(api, key, body({ scopeLabel: 'x' })), 'invalid_request');
      // The key is still free: a valid request with different content is a new operation, not a conflict.
      expectSuccess(await create(api, key));
    });

    it('same key + same content replays the same status and data, once', async () => {
      const api = client(get());
      const key = uniqueKey('replay');
      const first = await create(api, key);
      const before = expectSuccess(await api.call('GET', path), ConnectionsData).count;
      // Same content with other key order and whitespace.
      const b = body();
      const reordered = `{ "capabilities": ${JSON.stringify(b.capabilities)}, "scopeLabel": "${b.scopeLabel}",\n "environment": "sandbox", "connectorId": "${b.connectorId}" }`;
      const again = await api.call('POST', path, {
        raw: reordered,
        headers: { 'idempotency-key': key, 'content-type': 'application/json' },
      });
      expect(again.status).toBe(first.status);
      expect(again.json.data).toEqual(first.json.data);
      expect(again.json.meta).toMatchObject({ replayed: true, idempotencyKey: key });
      expect(again.json.meta.requestId).not.toBe(first.json.meta.requestId);
      expect(expectSuccess(await api.call('GET', path), ConnectionsData).count).toBe(before);
    });

    it('same key + different content -> 409 idempotency_conflict', async () => {
      const api = client(get());
      const key = uniqueKey('conflict');
      expectSuccess(await create(api, key));
      expectFailure(await create(api, key, body({ scopeLabel: 'Another venue' })), 'idempotency_conflict');
    });

    it('keys are scoped per tenant', async () => {
      const t = get();
      const harbour = client(t);
      const alpineToken = t.sandbox.issueToken('alpine-backend');
      const key = uniqueKey('tenant');
      const a = expectSuccess(await create(harbour, key), Connection);
      const b = await create(harbour, key, body({ scopeLabel: 'Alpine Bistro Old Town' }), {
        token: alpineToken.token,
        tenant: 'alpine-bistro',
      });
      expect(expectSuccess(b, Connection).id).not.toBe(a.id);
      expect(b.json.meta.replayed).toBeUndefined();
      // Tenant isolation: neither sees the other's connection.
      const alpineList = expectSuccess(
        await harbour.call('GET', path, { token: alpineToken.token, tenant: 'alpine-bistro' }),
        ConnectionsData,
      );
      expect(alpineList.connections.map((c) => c.id)).not.toContain(a.id);
      expectFailure(
        await harbour.call('GET', `${path}/${a.id}`, { token: alpineToken.token, tenant: 'alpine-bistro' }),
        'not_found',
      );
    });

    it('50 concurrent requests with one key make exactly one connection; the others replay it', async () => {
      const api = client(get());
      const key = uniqueKey('burst');
      const before = expectSuccess(await api.call('GET', path), ConnectionsData).count;
      const results = await Promise.all(
        Array.from({ length: 50 }, () => create(api, key, body({ scopeLabel: 'Burst venue' }))),
      );
      const ids = new Set(results.map((r) => expectSuccess(r, Connection).id));
      expect(ids.size).toBe(1);
      expect(results.filter((r) => r.json.meta.replayed === true)).toHaveLength(49);
      expect(expectSuccess(await api.call('GET', path), ConnectionsData).count).toBe(before + 1);
    });

    it('after expiry a key starts a new operation (simulator clock)', async () => {
      const t = get();
      const api = client(t);
      const key = uniqueKey('expiry');
      const first = expectSuccess(await create(api, key), Connection);
      t.sandbox.control.advanceClock(t.sandbox.state.idempotency.options.ttlMs / 1000 + 1);
      try {
        const { token } = t.sandbox.issueToken();
        const second = await create(api, key, body(), { token });
        expect(expectSuccess(second, Connection).id).not.toBe(first.id);
        expect(second.json.meta.replayed).toBeUndefined();
      } finally {
        t.sandbox.state.clock.reset();
      }
    });

    it('an issued key lives exactly until the expiresAt it was issued with, however late its first use', async () => {
      const t = get();
      const api = client(t);
      const k = expectSuccess(
        await api.call('POST', '/api/public/v1/idempotency-keys', { body: { operation: 'connection.create' } }),
        IdempotencyKeyResult,
      );
      try {
        t.sandbox.control.advanceClock(3600); // first used an hour after issue
        let { token } = t.sandbox.issueToken(undefined, 48 * 3600);
        const first = expectSuccess(await create(api, k.idempotencyKey, body(), { token }), Connection);
        const left = (Date.parse(k.expiresAt) - t.sandbox.state.clock.now()) / 1000;
        t.sandbox.control.advanceClock(left - 10);
        expect((await create(api, k.idempotencyKey, body(), { token })).json.meta.replayed).toBe(true);
        t.sandbox.control.advanceClock(20); // 10 s past the announced expiresAt
        ({ token } = t.sandbox.issueToken(undefined, 48 * 3600));
        const after = await create(api, k.idempotencyKey, body(), { token });
        expect(expectSuccess(after, Connection).id).not.toBe(first.id);
        expect(after.json.meta.replayed).toBeUndefined();
      } finally {
        t.sandbox.state.clock.reset();
      }
    });

    it('unknown connector -> 404; capabilities not offered or not released -> 409 naming them; both replay', async () => {
      const api = client(get());
      expectFailure(await create(api, uniqueKey('nf'), body({ connectorId: 'no-such-connector' })), 'not_found');
      const key = uniqueKey('denied');
      const err = expectFailure(
        await create(api, key, body({ capabilities: ['orders.read', 'delivery.dispatch'] })),
        'capability_denied',
      );
      expect(err.detail).toContain('delivery.dispatch');
      expect(err.detail).not.toContain('orders.read');
      const restricted = expectFailure(
        await create(api, uniqueKey('restricted'), body({ environment: 'production' })),
        'capability_denied',
      );
      expect(restricted.detail).toContain('payments.refund');
      const replay = await create(api, key, body({ capabilities: ['orders.read', 'delivery.dispatch'] }));
      expectFailure(replay, 'capability_denied');
      expect(replay.json.meta.replayed).toBe(true);
    });

    it('body limits: scopeLabel 2..120, capabilities 1..24 items of 2..120', async () => {
      const api = client(get());
      const ok = async (b: unknown) => expectSuccess(await create(api, uniqueKey('limits'), b));
      const bad = async (b: unknown, field: RegExp) =>
        expect(expectFailure(await create(api, uniqueKey('limits'), b), 'invalid_request').detail).toMatch(field);
      await ok(body({ scopeLabel: 'ab' }));
      await ok(body({ scopeLabel: 'a'.repeat(120) }));
      await bad(body({ scopeLabel: 'a' }), /scopeLabel/);
      await bad(body({ scopeLabel: 'a'.repeat(121) }), /scopeLabel/);
      await bad(body({ capabilities: [] }), /capabilities/);
      await bad(body({ capabilities: Array.from({ length: 25 }, () => 'orders.read') }), /capabilities/);
      await bad(body({ capabilities: ['x'] }), /capabilities/);
      await bad(body({ restaurantId: 'r-1' }), /restaurantId/);
      // 24 items pass validation (duplicates are booked once).
      const c = await ok(body({ capabilities: Array.from({ length: 24 }, () => 'orders.read') }));
      expect(c.capabilities).toHaveLength(1);
    });

    it('idempotency keys: generated, pattern-conform, unguessable, with expiry', async () => {
      const api = client(get());
      const res = await api.call('POST', '/api/public/v1/idempotency-keys', {
        body: { operation: 'connection.create' },
      });
      const k = expectSuccess(res, IdempotencyKeyResult);
      expect(k.operation).toBe('connection.create');
      expect(k.idempotencyKey).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
      expect(Date.parse(k.expiresAt) - Date.parse(res.json.meta.at)).toBe(24 * 3600_000);
      const other = expectSuccess(
        await api.call('POST', '/api/public/v1/idempotency-keys', { body: { operation: 'connection.create' } }),
        IdempotencyKeyResult,
      );
      expect(other.idempotencyKey).not.toBe(k.idempotencyKey);
      expectFailure(
        await api.call('POST', '/api/public/v1/idempotency-keys', { body: { operation: 'x' } }),
        'invalid_request',
      );
      expectFailure(
        await api.call('POST', '/api/public/v1/idempotency-keys', { body: { operation: 'x'.repeat(81) } }),
        'invalid_request',
      );
      expectSuccess(await api.call('POST', '/api/public/v1/idempotency-keys', { body: { operation: 'x'.repeat(80) } }));
      // An issued key works for a creation and then replays.
      const first = await create(api, k.idempotencyKey);
      expectSuccess(first);
      expect((await create(api, k.idempotencyKey)).json.meta.replayed).toBe(true);
    });

    it('paused, revoked and unbooked connections deny capability checks', async () => {
      const t = get();
      const api = client(t);
      const check = async (capability: string) =>
        expectSuccess(
          await api.call('POST', '/api/public/v1/capabilities', {
            body: { connectorId: 'ledgerloom-sales-export', capability },
          }),
        ).decision;
      const connector = t.sandbox.state.catalog.connector('ledgerloom-sales-export')!;
      const [booked, unbooked] = connector.capabilities as [string, string];
      const c = expectSuccess(
        await create(api, uniqueKey('decide'), body({ connectorId: connector.id, capabilities: [booked] })),
        Connection,
      );
      expect((await check(booked)).allowed).toBe(true);
      expect((await check(unbooked)).reason).toMatch(/^not_booked/);
      t.sandbox.control.setConnectionState(c.id, 'active');
      t.sandbox.control.setConnectionState(c.id, 'paused');
      expect(await check(booked)).toMatchObject({
        allowed: false,
        reason: expect.stringMatching(/^connection_paused/),
      });
      t.sandbox.control.setConnectionState(c.id, 'revoked');
      expect(await check(booked)).toMatchObject({
        allowed: false,
        reason: expect.stringMatching(/^connection_revoked/),
      });
      expect(expectSuccess(await api.call('GET', `${path}/${c.id}`), Connection).nextStep).toMatch(/revoked/);
    });

    it('records every change in the audit trail with who, what, when and the requestId', async () => {
      const t = get();
      const api = client(t);
      const res = await create(api, uniqueKey('audit'));
      const c = expectSuccess(res, Connection);
      const records = (await t.sandbox.state.audit.list('harbour-kitchens', { limit: 500 })).entries.filter(
        (r) => r.target === `connection:${c.id}`,
      );
      expect(records.at(-1)).toMatchObject({
        actor: 'harbour-backend',
        action: 'connection.created',
        requestId: res.json.meta.requestId,
        at: res.json.meta.at,
      });
    });
  });
}
