import type { Persistence } from '../persistence/persistence.ts';

/** What a snapshot keeps of the stores: their records and logs, as the SQLite data dir would hold them. */
export interface PersistedState {
  records: [ns: string, entries: [key: string, value: unknown][]][];
  logs: [name: string, entries: [seq: number, value: unknown][]][];
}

/** A Persistence in memory whose whole content can be written out at any moment and read back. */
export interface SnapshotPersistence extends Persistence {
  /** Everything the stores wrote through, as JSON-ready values (the stores' current records). */
  dump(): PersistedState;
}

/**
 * The shared sandbox's write-through target: every store writes its records and logs here, as it
 * would to the SQLite data dir, so a replica can write its whole applied state as a snapshot and a
 * replica started later builds its stores from one (the same load path as `--data-dir`).
 * @example const p = createSnapshotPersistence(snapshot?.state); createSandboxState({ ..., persistence: p }); p.dump();
 */
export function createSnapshotPersistence(initial?: PersistedState): SnapshotPersistence {
  const records = new Map<string, Map<string, unknown>>();
  const logs = new Map<string, Map<number, unknown>>();
  for (const [ns, entries] of initial?.records ?? []) records.set(ns, new Map(entries));
  for (const [name, entries] of initial?.logs ?? []) logs.set(name, new Map(entries));
  const ns = (name: string) => {
    let m = records.get(name);
    if (!m) {
      m = new Map();
      records.set(name, m);
    }
    return m;
  };
  return {
    durable: true,
    entries: <T>(name: string) => (records.get(name) ?? new Map()).entries() as Iterable<[string, T]>,
    put: (name, key, value) => void ns(name).set(key, value),
    delete: (name, key) => void records.get(name)?.delete(key),
    append(name, seq, value) {
      const log = logs.get(name) ?? new Map<number, unknown>();
      logs.set(name, log);
      log.set(seq, value);
    },
    *logEntries<T>(name: string, fromSeq = 0) {
      const log = logs.get(name);
      if (!log) return;
      const seqs = [...log.keys()].filter((s) => s >= fromSeq).sort((a, b) => a - b);
      for (const s of seqs) yield log.get(s) as T;
    },
    trimLog(name, keepFromSeq) {
      const log = logs.get(name);
      if (log) for (const s of log.keys()) if (s < keepFromSeq) log.delete(s);
    },
    logNames: (prefix) => [...logs.keys()].filter((n) => n.startsWith(prefix)),
    transaction: (fn) => fn(),
    deleteNamespace: (name) => void records.delete(name),
    deleteLogs(prefix) {
      for (const n of [...logs.keys()]) if (n.startsWith(prefix)) logs.delete(n);
    },
    close() {},
    dump: () => ({
      records: [...records].map(([name, m]) => [name, [...m]]),
      logs: [...logs].map(([name, m]) => [name, [...m]]),
    }),
  };
}
