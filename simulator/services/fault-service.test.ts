import { describe, expect, it } from 'vitest';
import { createFaultStore } from '../state/fault-store.ts';
import { networkLike } from '../test-support/network-like.ts';
import { createFaultService } from './fault-service.ts';

describe.each([
  ['the memory repository', false],
  ['a repository answering promises', true],
])('fault service over %s', (_name, async) => {
  const setup = () => {
    const clock = { now: 1000 };
    const memory = createFaultStore();
    const faults = createFaultService({ repository: async ? networkLike(memory) : memory, now: () => clock.now });
    return { faults, clock, memory };
  };
  const call = { method: 'POST', path: '/api/public/v1/connections', routeId: 'createConnection', tenant: 't1' };

  it('answers at once from memory when nothing is armed, with a promise otherwise', () => {
    const { faults } = setup();
    expect(faults.take(call) instanceof Promise).toBe(async);
  });

  it('arms with a count (default 1) and takes one use per matching call', async () => {
    const { faults } = setup();
    const armed = await faults.arm({ kind: 'internal', route: 'createConnection', count: 2 });
    expect(armed).toMatchObject({ id: 'fault_1', remaining: 2 });
    await faults.arm({ kind: 'latency', route: 'listProviders' });
    expect((await faults.take(call))?.remaining).toBe(1);
    expect((await faults.take(call))?.remaining).toBe(0);
    expect(await faults.take(call)).toBeUndefined();
    expect((await faults.list()).map((f) => f.kind)).toEqual(['latency']);
  });

  it('matches method, route (id, path or concrete path), tenant, and cursor_expired only with a cursor', async () => {
    const { faults } = setup();
    await faults.arm({ kind: 'internal', method: 'get', route: '/api/public/v1/connections', count: 5 });
    expect(await faults.take(call)).toBeUndefined(); // POST
    expect((await faults.take({ ...call, method: 'GET' }))?.kind).toBe('internal');
    await faults.clear();
    await faults.arm({ kind: 'internal', tenant: 't2' });
    expect(await faults.take(call)).toBeUndefined();
    expect((await faults.take({ ...call, tenant: 't2' }))?.kind).toBe('internal');
    await faults.arm({ kind: 'cursor_expired' });
    expect(await faults.take({ ...call, path: '/api/public/v1/stream' })).toBeUndefined();
    expect((await faults.take({ ...call, cursorSent: true }))?.kind).toBe('cursor_expired');
  });

  it('a fault with a duration applies to every matching call until its wall-clock end', async () => {
    const { faults, clock } = setup();
    const armed = await faults.arm({ kind: 'rate_limited', durationSeconds: 2 });
    expect(armed).toMatchObject({ remaining: Number.POSITIVE_INFINITY, expiresAt: 3000 });
    for (let i = 0; i < 3; i++) expect((await faults.take(call))?.kind).toBe('rate_limited');
    clock.now = 3000;
    expect(await faults.take(call)).toBeUndefined();
    expect(await faults.list()).toEqual([]);
  });

  it('signature faults skew the next attempts (stale into the past), never take a request', async () => {
    const { faults } = setup();
    await faults.arm({ kind: 'stale_signature', webhookId: 'wh_1' });
    await faults.arm({ kind: 'future_signature', skewSeconds: 30 });
    expect(await faults.take(call)).toBeUndefined();
    expect(await faults.takeSignatureSkew('wh_2')).toBe(30_000);
    expect(await faults.takeSignatureSkew('wh_1')).toBe(-600_000);
    expect(await faults.takeSignatureSkew('wh_1')).toBe(0);
  });

  it('hands out copies: changing an answer changes nothing armed', async () => {
    const { faults } = setup();
    const armed = await faults.arm({ kind: 'internal', count: 3 });
    armed.remaining = 0;
    const [listed] = await faults.list();
    if (listed) listed.remaining = 0;
    expect((await faults.take(call))?.remaining).toBe(2);
  });
});
