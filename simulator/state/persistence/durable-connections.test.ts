import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createConnectionsStore } from '../connections-store.ts';
import type { StoredConnection } from '../ports/connections.ts';
import { durableConnections } from './durable-connections.ts';
import { memoryOnly } from './persistence.ts';
import { PersistenceError } from './persistence-error.ts';
import { openSqlitePersistence } from './sqlite-persistence.ts';
import { createSnapshotPersistence } from '../redis/snapshot-persistence.ts';
import { networkLike } from '../../test-support/network-like.ts';

let n = 0;
const record = (tenant = 't1', activatesAt?: number): StoredConnection => ({
  tenant,
  activatesAt,
  connection: {
    id: `con_${++n}`,
    connectorId: 'c',
    environment: 'sandbox',
    scopeLabel: 'Venue',
    state: activatesAt === undefined ? 'active' : 'pending',
    capabilities: [{ capability: 'orders.read', critical: false, idempotencyRequired: false }],
    nextStep: 'next',
    createdAt: '2026-11-25T00:00:00.000Z',
    updatedAt: '2026-11-25T00:00:00.000Z',
  },
});
const change = { state: 'paused' as const, nextStep: 'paused step', updatedAt: '2026-11-25T01:00:00.000Z' };
const sync = <T>(v: T | Promise<T>): T => {
  if (v instanceof Promise) throw new Error('a memory repository written through to SQLite answers at once');
  return v;
};
const withDir = async (fn: (dir: string) => unknown) => {
  const dir = mkdtempSync(join(tmpdir(), 'ncs-durable-connections-'));
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

describe('durableConnections', () => {
  it('answers the repository itself when nothing is durable (the memory path pays nothing)', () => {
    const repository = createConnectionsStore();
    expect(durableConnections(repository, memoryOnly)).toBe(repository);
  });

  it('writes through to SQLite and loads records, indexes and due queue back', () =>
    withDir((dir) => {
      const first = openSqlitePersistence(dir);
      const repo = durableConnections(createConnectionsStore(), first);
      const active = record();
      const pending = record('t2', 5000);
      const paused = record();
      for (const r of [active, pending, paused]) repo.insert(r);
      expect(sync(repo.update(paused.connection.id, change))).toMatchObject({ state: 'paused' });
      expect(sync(repo.update('con_missing', change))).toBeUndefined();
      first.close();

      const second = openSqlitePersistence(dir);
      const again = durableConnections(createConnectionsStore(), second);
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
      expect(sync(durableConnections(createConnectionsStore(), third).count())).toBe(0);
      third.close();
    }));

  it('stores a transition as the whole record, out of the due queue, with its tenant', () => {
    const p = createSnapshotPersistence();
    const repo = durableConnections(createConnectionsStore(), p);
    const pending = record('t9', 5000);
    repo.insert(pending);
    repo.update(pending.connection.id, change);
    const [[, stored]] = [...p.entries<StoredConnection>('connections')] as [[string, StoredConnection]];
    expect(JSON.parse(JSON.stringify(stored))).toEqual({
      tenant: 't9',
      connection: { ...pending.connection, ...change },
    });
    expect(sync(durableConnections(createConnectionsStore(), p).nextDue())).toBeUndefined();
  });

  it('refuses a stored record that is not a connection, naming where it was read', () => {
    const p = createSnapshotPersistence({ records: [['connections', [['con_x', { tenant: 't1' }]]]], logs: [] });
    expect(() => durableConnections(createConnectionsStore(), p)).toThrow(PersistenceError);
    expect(() => durableConnections(createConnectionsStore(), p)).toThrow(/is not a connection/);
  });

  it('loads into and writes through a repository that answers promises, in order', async () => {
    const p = createSnapshotPersistence();
    const stored = record('t1', 7000);
    p.put('connections', stored.connection.id, stored);
    const repo = durableConnections(networkLike(createConnectionsStore()), p);
    expect(await repo.nextDue()).toBe(7000);
    const added = record();
    await repo.insert(added);
    await repo.update(stored.connection.id, change);
    expect([...p.entries<StoredConnection>('connections')].map(([id, s]) => [id, s.connection.state])).toEqual([
      [stored.connection.id, 'paused'],
      [added.connection.id, 'active'],
    ]);
    await repo.clear();
    expect([...p.entries('connections')]).toEqual([]);
  });
});
