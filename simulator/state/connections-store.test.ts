import { describe, expect, it } from 'vitest';
import { createConnectionsStore } from './connections-store.ts';
import type { ConnectionRepository, StoredConnection } from './ports/connections.ts';

let n = 0;
const record = (
  over: { tenant?: string; connectorId?: string; environment?: 'sandbox' | 'production' } = {},
  activatesAt?: number,
): StoredConnection => {
  const id = `con_${++n}`;
  return {
    tenant: over.tenant ?? 't1',
    activatesAt,
    connection: {
      id,
      connectorId: over.connectorId ?? 'c',
      environment: over.environment ?? 'sandbox',
      scopeLabel: 'Venue',
      state: activatesAt === undefined ? 'active' : 'pending',
      capabilities: [{ capability: 'orders.read', critical: false, idempotencyRequired: false }],
      nextStep: 'next',
      createdAt: '2026-11-25T00:00:00.000Z',
      updatedAt: '2026-11-25T00:00:00.000Z',
    },
  };
};
const change = { state: 'paused' as const, nextStep: 'paused step', updatedAt: '2026-11-25T01:00:00.000Z' };
// The memory repository answers at once; these tests read its values as such.
const sync = <T>(v: T | Promise<T>): T => {
  if (v instanceof Promise) throw new Error('the memory repository answers at once');
  return v;
};

describe('connections repository (memory)', () => {
  it('finds records by id, by tenant and by (tenant, connector, environment), oldest first', () => {
    const repo: ConnectionRepository = createConnectionsStore();
    const a = record();
    const prod = record({ environment: 'production' });
    const other = record({ connectorId: 'other' });
    const t2 = record({ tenant: 't2' });
    const b = record();
    for (const r of [a, prod, other, t2, b]) repo.insert(r);
    expect(sync(repo.count())).toBe(5);
    expect(sync(repo.find(t2.connection.id))).toMatchObject({ tenant: 't2', connection: { id: t2.connection.id } });
    expect(sync(repo.find('con_missing'))).toBeUndefined();
    expect(sync(repo.list('t1')).map((c) => c.id)).toEqual([a, prod, other, b].map((r) => r.connection.id));
    expect(sync(repo.forTarget('t1', 'c', 'sandbox')).map((c) => c.id)).toEqual([a.connection.id, b.connection.id]);
    expect(sync(repo.forTarget('t2', 'c', 'production'))).toEqual([]);
    repo.clear();
    expect(sync(repo.count())).toBe(0);
    expect(sync(repo.list('t1'))).toEqual([]);
    expect(sync(repo.forTarget('t1', 'c', 'sandbox'))).toEqual([]);
  });

  it('updates a record in every index by replacing it: what was handed out before never changes', () => {
    const repo = createConnectionsStore();
    const a = record();
    repo.insert(a);
    const created = a.connection;
    const changed = sync(repo.update(a.connection.id, change));
    expect(changed).toMatchObject({ state: 'paused', nextStep: 'paused step', updatedAt: change.updatedAt });
    expect(sync(repo.update('con_missing', change))).toBeUndefined();
    if (!changed) throw new Error('an update of a stored record answers it');
    // The record as inserted (an answer, a stream message, an idempotency record may hold it) is unchanged.
    expect(created).toMatchObject({ state: 'active', nextStep: 'next' });
    expect(changed).not.toBe(created);
    expect(changed.capabilities).toBe(created.capabilities);
    // Kept records are read-only: a change throws instead of changing what others hold.
    expect(() => {
      changed.state = 'revoked';
    }).toThrow(TypeError);
    expect(() => {
      created.state = 'revoked';
    }).toThrow(TypeError);
    // Reads answer copies the caller may change.
    for (const c of sync(repo.list('t1'))) {
      c.state = 'revoked';
      for (const x of c.capabilities) x.capability = 'hacked';
    }
    expect(sync(repo.forTarget('t1', 'c', 'sandbox'))[0]).toMatchObject({
      state: 'paused',
      capabilities: [{ capability: 'orders.read' }],
    });
    const again = sync(repo.update(a.connection.id, { ...change, state: 'active' }));
    expect(changed.state).toBe('paused');
    expect(again?.state).toBe('active');
  });

  it('takes due pending records off the queue in due order, skipping those that left pending', () => {
    const repo = createConnectionsStore();
    const late = record({}, 3000);
    const early = record({}, 1000);
    const left = record({}, 2000);
    for (const r of [late, early, left]) repo.insert(r);
    expect(sync(repo.nextDue())).toBe(1000);
    expect(sync(repo.takeDue(999))).toEqual([]);
    repo.update(left.connection.id, change);
    expect(sync(repo.takeDue(2500)).map((s) => s.connection.id)).toEqual([early.connection.id]);
    // Taken records leave the queue; the caller's update takes them out of pending.
    expect(sync(repo.takeDue(2500))).toEqual([]);
    repo.update(early.connection.id, change);
    expect(sync(repo.nextDue())).toBe(3000);
    repo.update(late.connection.id, change);
    expect(sync(repo.nextDue())).toBeUndefined();
  });
});
