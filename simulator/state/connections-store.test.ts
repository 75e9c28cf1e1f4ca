import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createConnectionsStore } from './connections-store.ts';
import { openSqlitePersistence } from './persistence/sqlite-persistence.ts';
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

  it('updates a record in every index and answers copies', () => {
    const repo = createConnectionsStore();
    const a = record();
    repo.insert(a);
    const changed = sync(repo.update(a.connection.id, change));
    expect(changed).toMatchObject({ state: 'paused', nextStep: 'paused step', updatedAt: change.updatedAt });
    expect(sync(repo.update('con_missing', change))).toBeUndefined();
    if (!changed) throw new Error('an update of a stored record answers it');
    changed.state = 'revoked';
    for (const c of changed.capabilities) c.capability = 'hacked';
    for (const c of sync(repo.list('t1'))) c.state = 'revoked';
    expect(sync(repo.forTarget('t1', 'c', 'sandbox'))[0]).toMatchObject({
      state: 'paused',
      capabilities: [{ capability: 'orders.read' }],
    });
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

  it('writes through to SQLite and loads records, indexes and due queue back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-connections-'));
    try {
      const first = openSqlitePersistence(dir);
      const repo = createConnectionsStore({ persistence: first });
      const active = record();
      const pending = record({ tenant: 't2' }, 5000);
      const paused = record();
      for (const r of [active, pending, paused]) repo.insert(r);
      repo.update(paused.connection.id, change);
      first.close();

      const second = openSqlitePersistence(dir);
      const again = createConnectionsStore({ persistence: second });
      expect(sync(again.count())).toBe(3);
      expect(sync(again.list('t1')).map((c) => [c.id, c.state])).toEqual([
        [active.connection.id, 'active'],
        [paused.connection.id, 'paused'],
      ]);
      expect(sync(again.forTarget('t2', 'c', 'sandbox')).map((c) => c.id)).toEqual([pending.connection.id]);
      expect(sync(again.nextDue())).toBe(5000);
      expect(sync(again.takeDue(5000)).map((s) => s.connection.id)).toEqual([pending.connection.id]);
      again.clear();
      second.close();
      const third = openSqlitePersistence(dir);
      expect(sync(createConnectionsStore({ persistence: third }).count())).toBe(0);
      third.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
