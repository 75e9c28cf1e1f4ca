import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSqlite } from './load-sqlite.ts';
import { DATABASE_FILE, openSqlitePersistence } from './sqlite-persistence.ts';

describe('sqlite persistence', () => {
  it('refuses a directory in the place of the database file, naming it (round 7: SQLite named nothing)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-db-'));
    mkdirSync(join(dir, DATABASE_FILE));
    expect(() => openSqlitePersistence(dir)).toThrow(`${join(dir, DATABASE_FILE)} is not a file`);
  });

  it("refuses another version's schema naming the file and the table (round 9: SQLite said only `no such column`)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-sqlite-schema-'));
    openSqlitePersistence(dir).close();
    const db = new (loadSqlite().DatabaseSync)(join(dir, DATABASE_FILE));
    db.exec('ALTER TABLE records RENAME COLUMN value TO payload');
    db.close();
    expect(() => openSqlitePersistence(dir)).toThrow(
      new RegExp(`${join(dir, DATABASE_FILE).replace(/[.]/g, '\\.')}: table records .*expected \\(ns, key, value\\)`),
    );
  });

  it('keeps records and logs across reopening', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-db-'));
    const a = openSqlitePersistence(dir);
    a.put('c', 'k2', { n: 2 });
    a.put('c', 'k1', { n: 1 });
    a.put('c', 'k2', { n: 22 });
    a.delete('c', 'k1');
    for (let i = 1; i <= 5; i++) a.append('feed:t', i, { id: i });
    a.append('feed:u', 1, { id: 1 });
    a.trimLog('feed:t', 3);
    a.close();
    const b = openSqlitePersistence(dir);
    expect([...b.entries('c')]).toEqual([['k2', { n: 22 }]]);
    expect([...b.logEntries<{ id: number }>('feed:t')].map((e) => e.id)).toEqual([3, 4, 5]);
    expect([...b.logEntries<{ id: number }>('feed:t', 5)].map((e) => e.id)).toEqual([5]);
    expect(b.logNames('feed:').sort()).toEqual(['feed:t', 'feed:u']);
    expect(b.logNames('feed_')).toEqual([]);
    b.close();
  });
  it('rolls a failed transaction back whole', () => {
    const p = openSqlitePersistence(mkdtempSync(join(tmpdir(), 'ncs-db-')));
    expect(() =>
      p.transaction(() => {
        p.put('c', 'a', 1);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect([...p.entries('c')]).toEqual([]);
    p.close();
  });
  it('tells when a transaction ends: committed() resolves after COMMIT, rejects after a rollback', async () => {
    const p = openSqlitePersistence(mkdtempSync(join(tmpdir(), 'ncs-db-')));
    expect(p.committed?.()).toBeUndefined();
    const seen: string[] = [];
    p.transaction(() => {
      p.put('c', 'a', 1);
      p.committed?.()?.then(() => seen.push('committed'));
      // Asked twice in one transaction: the same end.
      expect(p.committed?.()).toBe(p.committed?.());
      p.transaction(() => p.put('c', 'b', 2)); // nested: part of the outer one
    });
    await Promise.resolve();
    expect(seen).toEqual(['committed']);
    let rolledBack: Promise<void> | undefined;
    expect(() =>
      p.transaction(() => {
        p.put('c', 'z', 26);
        rolledBack = p.committed?.();
        throw new Error('boom');
      }),
    ).toThrow('boom');
    await expect(rolledBack).rejects.toThrow('boom');
    expect([...p.entries('c')]).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    expect(p.committed?.()).toBeUndefined();
    p.close();
  });
});
