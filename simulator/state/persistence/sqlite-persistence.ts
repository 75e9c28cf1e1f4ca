import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadSqlite } from './load-sqlite.ts';
import type { Persistence } from './persistence.ts';
import { PersistenceError } from './persistence-error.ts';

export const DATABASE_FILE = 'ncs-sandbox.sqlite';

const isBusy = (err: unknown) =>
  (err as { errcode?: number })?.errcode === 5 || /database is locked/i.test((err as Error)?.message ?? '');

/**
 * Opens the database file owner-only (it holds signing secrets and token hashes): created 0600,
 * tightened to 0600 if it exists. A 0-byte file is refused: it is not a database this tool wrote.
 */
function prepareFile(file: string) {
  let size: number | undefined;
  let isFile = true;
  try {
    const stat = statSync(file);
    size = stat.size;
    isFile = stat.isFile();
  } catch {
    closeSync(openSync(file, 'a', 0o600));
  }
  // A directory (or a device, a socket) in the database's place: SQLite would say only "unable to open
  // database file", naming nothing.
  if (!isFile)
    throw new PersistenceError(
      `${file} is not a file: not an ncs-sandbox database. Remove it, or choose another --data-dir.`,
    );
  if (size === 0)
    throw new PersistenceError(
      `${file} is empty (0 bytes): not an ncs-sandbox database. Remove it to start with fresh state, or restore it from a backup.`,
    );
  chmodSync(file, 0o600);
}

/** The columns this version reads and writes, per table (CREATE TABLE IF NOT EXISTS keeps an older shape). */
const EXPECTED_COLUMNS: Record<'records' | 'logs', string[]> = {
  records: ['ns', 'key', 'value'],
  logs: ['log', 'seq', 'value'],
};

/**
 * Refuses a database whose tables have another shape (another version's schema, an edit while stopped) before any
 * statement is prepared: SQLite would otherwise say only "no such column: value", naming neither file nor table.
 */
function checkSchema(db: { prepare(sql: string): { all(): unknown[] }; close(): void }, file: string) {
  for (const [table, expected] of Object.entries(EXPECTED_COLUMNS)) {
    const columns = (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
    const missing = expected.filter((c) => !columns.includes(c));
    if (missing.length === 0) continue;
    db.close();
    throw new PersistenceError(
      `${file}: table ${table} has columns (${columns.join(', ')}), expected (${expected.join(', ')}): not this version's ncs-sandbox schema. Restore the data dir from a backup, or remove it to start with fresh state.`,
    );
  }
}

/**
 * Persistence in an embedded SQLite database (node:sqlite, no native add-on). WAL journal with
 * synchronous=NORMAL: a committed write survives the process being killed (kill -9); only a power
 * loss of the machine may lose the last transactions.
 *
 * One process per data dir: the database runs in SQLite's exclusive locking mode and takes its write
 * lock at open, an OS-level lock the process holds until it exits. A second process is refused at
 * once; a killed process leaves no stale lock behind (the OS drops its locks with it).
 * @example const p = openSqlitePersistence('.ncs-data'); p.put('connections', id, record);
 */
export function openSqlitePersistence(dir: string): Persistence {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, DATABASE_FILE);
  prepareFile(file);
  // Loaded here, not imported at the top: only `--data-dir` needs it (and Node 22 warns as it loads).
  const { DatabaseSync } = loadSqlite();
  let db: InstanceType<typeof DatabaseSync>;
  try {
    db = new DatabaseSync(file);
  } catch (err) {
    throw new PersistenceError(`${file} cannot be opened as a database: ${(err as Error).message}`, { cause: err });
  }
  try {
    // Exclusive mode before the first access: WAL then needs no shared-memory file, and the lock
    // taken by the first write transaction is kept until the connection closes.
    db.exec(`
      PRAGMA locking_mode = EXCLUSIVE;
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = NORMAL;
      BEGIN EXCLUSIVE;
      CREATE TABLE IF NOT EXISTS records (ns TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (ns, key));
      CREATE TABLE IF NOT EXISTS logs (log TEXT NOT NULL, seq INTEGER NOT NULL, value TEXT NOT NULL, PRIMARY KEY (log, seq)) WITHOUT ROWID;
      COMMIT;
    `);
  } catch (err) {
    db.close();
    if (isBusy(err))
      throw new PersistenceError(
        `the data dir ${dir} is in use by another ncs process (${file} is locked). Stop that process or choose another --data-dir.`,
        { cause: err },
      );
    throw new PersistenceError(`${file} is not a usable ncs-sandbox database: ${(err as Error).message}`, {
      cause: err,
    });
  }
  checkSchema(db, file);
  let lastRead = `${file}`;
  const parse = <T>(table: 'records' | 'logs', where: string, text: string): T => {
    lastRead = `${file}, table ${table} (${where})`;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new PersistenceError(
        `${file}: a row of table ${table} (${where}) is not valid JSON; the data dir is damaged. Restore it from a backup or remove it to start fresh.`,
      );
    }
  };
  const q = {
    entries: db.prepare('SELECT key, value FROM records WHERE ns = ? ORDER BY rowid'),
    put: db.prepare(
      'INSERT INTO records (ns, key, value) VALUES (?, ?, ?) ON CONFLICT (ns, key) DO UPDATE SET value = excluded.value',
    ),
    del: db.prepare('DELETE FROM records WHERE ns = ? AND key = ?'),
    append: db.prepare('INSERT OR REPLACE INTO logs (log, seq, value) VALUES (?, ?, ?)'),
    logEntries: db.prepare('SELECT seq, value FROM logs WHERE log = ? AND seq >= ? ORDER BY seq'),
    trim: db.prepare('DELETE FROM logs WHERE log = ? AND seq < ?'),
    logNames: db.prepare("SELECT DISTINCT log FROM logs WHERE log LIKE ? ESCAPE '\\'"),
    deleteNs: db.prepare('DELETE FROM records WHERE ns = ?'),
    deleteLogs: db.prepare("DELETE FROM logs WHERE log LIKE ? ESCAPE '\\'"),
  };
  const like = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  let depth = 0;
  // The open transaction's end, made when something asks to wait for it (`committed`).
  let ending: { promise: Promise<void>; resolve: () => void; reject: (err: unknown) => void } | undefined;
  return {
    durable: true,
    *entries<T>(ns: string) {
      for (const row of q.entries.iterate(ns) as Iterable<{ key: string; value: string }>)
        yield [row.key, parse<T>('records', `ns ${ns}, key ${row.key}`, row.value)] as [string, T];
    },
    put: (ns, key, value) => void q.put.run(ns, key, JSON.stringify(value)),
    delete: (ns, key) => void q.del.run(ns, key),
    append: (log, seq, value) => void q.append.run(log, seq, JSON.stringify(value)),
    *logEntries<T>(log: string, fromSeq = 0) {
      for (const row of q.logEntries.iterate(log, fromSeq) as Iterable<{ value: string; seq: number }>)
        yield parse<T>('logs', `log ${log}, seq ${row.seq}`, row.value);
    },
    trimLog: (log, keepFromSeq) => void q.trim.run(log, keepFromSeq),
    logNames: (prefix) => (q.logNames.all(like(prefix)) as { log: string }[]).map((r) => r.log),
    deleteNamespace: (ns) => void q.deleteNs.run(ns),
    deleteLogs: (prefix) => void q.deleteLogs.run(like(prefix)),
    committed() {
      if (depth === 0) return undefined;
      if (!ending) {
        let resolve = () => {};
        let reject: (err: unknown) => void = () => {};
        const promise = new Promise<void>((res, rej) => {
          resolve = res;
          reject = rej;
        });
        // Whoever waits handles the rollback; the promise itself never counts as unhandled.
        promise.catch(() => {});
        ending = { promise, resolve, reject };
      }
      return ending.promise;
    },
    transaction(fn) {
      if (depth > 0) return fn();
      depth++;
      let result: ReturnType<typeof fn>;
      try {
        db.exec('BEGIN');
        result = fn();
        db.exec('COMMIT');
      } catch (err) {
        // A failed COMMIT may have rolled back already: the first error is the one to report.
        try {
          db.exec('ROLLBACK');
        } catch {}
        depth--;
        const ended = ending;
        ending = undefined;
        ended?.reject(err);
        throw err;
      }
      depth--;
      const ended = ending;
      ending = undefined;
      ended?.resolve();
      return result;
    },
    close: () => db.close(),
    lastRead: () => lastRead,
  };
}
