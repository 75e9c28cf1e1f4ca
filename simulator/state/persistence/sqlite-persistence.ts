import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Persistence } from './persistence.ts';

export const DATABASE_FILE = 'ncs-sandbox.sqlite';

/**
 * Persistence in an embedded SQLite database (node:sqlite, no native add-on). WAL journal with
 * synchronous=NORMAL: a committed write survives the process being killed (kill -9); only a power
 * loss of the machine may lose the last transactions.
 * @example const p = openSqlitePersistence('.ncs-data'); p.put('connections', id, record);
 */
export function openSqlitePersistence(dir: string): Persistence {
  mkdirSync(dir, { recursive: true });
  // Loaded here, not imported at the top: Node 22 prints an ExperimentalWarning whenever node:sqlite
  // loads, and only `--data-dir` needs it.
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite');
  const db = new DatabaseSync(join(dir, DATABASE_FILE));
  db.exec(`
    PRAGMA journal_mode = WAL;
    PRAGMA synchronous = NORMAL;
    CREATE TABLE IF NOT EXISTS records (ns TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (ns, key));
    CREATE TABLE IF NOT EXISTS logs (log TEXT NOT NULL, seq INTEGER NOT NULL, value TEXT NOT NULL, PRIMARY KEY (log, seq)) WITHOUT ROWID;
  `);
  const q = {
    entries: db.prepare('SELECT key, value FROM records WHERE ns = ? ORDER BY rowid'),
    put: db.prepare(
      'INSERT INTO records (ns, key, value) VALUES (?, ?, ?) ON CONFLICT (ns, key) DO UPDATE SET value = excluded.value',
    ),
    del: db.prepare('DELETE FROM records WHERE ns = ? AND key = ?'),
    append: db.prepare('INSERT OR REPLACE INTO logs (log, seq, value) VALUES (?, ?, ?)'),
    logEntries: db.prepare('SELECT value FROM logs WHERE log = ? AND seq >= ? ORDER BY seq'),
    trim: db.prepare('DELETE FROM logs WHERE log = ? AND seq < ?'),
    logNames: db.prepare("SELECT DISTINCT log FROM logs WHERE log LIKE ? ESCAPE '\\'"),
    deleteNs: db.prepare('DELETE FROM records WHERE ns = ?'),
    deleteLogs: db.prepare("DELETE FROM logs WHERE log LIKE ? ESCAPE '\\'"),
  };
  const like = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  let depth = 0;
  return {
    durable: true,
    *entries<T>(ns: string) {
      for (const row of q.entries.iterate(ns) as Iterable<{ key: string; value: string }>)
        yield [row.key, JSON.parse(row.value) as T] as [string, T];
    },
    put: (ns, key, value) => void q.put.run(ns, key, JSON.stringify(value)),
    delete: (ns, key) => void q.del.run(ns, key),
    append: (log, seq, value) => void q.append.run(log, seq, JSON.stringify(value)),
    *logEntries<T>(log: string, fromSeq = 0) {
      for (const row of q.logEntries.iterate(log, fromSeq) as Iterable<{ value: string }>)
        yield JSON.parse(row.value) as T;
    },
    trimLog: (log, keepFromSeq) => void q.trim.run(log, keepFromSeq),
    logNames: (prefix) => (q.logNames.all(like(prefix)) as { log: string }[]).map((r) => r.log),
    deleteNamespace: (ns) => void q.deleteNs.run(ns),
    deleteLogs: (prefix) => void q.deleteLogs.run(like(prefix)),
    transaction(fn) {
      if (depth > 0) return fn();
      depth++;
      db.exec('BEGIN');
      try {
        const result = fn();
        db.exec('COMMIT');
        return result;
      } catch (err) {
        db.exec('ROLLBACK');
        throw err;
      } finally {
        depth--;
      }
    },
    close: () => db.close(),
  };
}
