/**
 * Where stores write through when the simulator runs with `--data-dir`. Two shapes cover every
 * store: keyed records (connections, idempotency records, tokens, receivers, deliveries) and
 * append-only logs (audit chains, stream feeds). Writes are synchronous: when a handler returns,
 * its write is in the database, so an acknowledged write survives a crash of the process.
 */
export interface Persistence {
  readonly durable: boolean;
  /** Every record of a namespace, in insertion order. */
  entries<T>(ns: string): Iterable<[string, T]>;
  put(ns: string, key: string, value: unknown): void;
  delete(ns: string, key: string): void;
  /** Appends to a log; `seq` must grow within the log. */
  append(log: string, seq: number, value: unknown): void;
  /** A log's entries with seq >= fromSeq, oldest first. */
  logEntries<T>(log: string, fromSeq?: number): Iterable<T>;
  /** Drops a log's entries below keepFromSeq (retention). */
  trimLog(log: string, keepFromSeq: number): void;
  /** Logs whose name starts with the prefix (e.g. every tenant feed). */
  logNames(prefix: string): string[];
  /** Runs writes as one transaction (all or nothing), committed before it returns. */
  transaction<T>(fn: () => T): T;
  /**
   * Inside `transaction`: a promise resolved once it is committed (rejected when it is rolled back), so
   * what must not be seen before it is saved (a stream message) waits for it. Outside one, or where
   * every write is saved as it is made: undefined.
   */
  committed?(): Promise<void> | undefined;
  /** Drops a whole namespace of records (a store's reset). */
  deleteNamespace(ns: string): void;
  /** Drops every log whose name starts with the prefix. */
  deleteLogs(prefix: string): void;
  close(): void;
  /** Where the last record was read from (file, table, key): named when stored state fails to load. */
  lastRead?(): string;
}

/** The default: nothing is written anywhere. */
export const memoryOnly: Persistence = {
  durable: false,
  entries: () => [],
  put() {},
  delete() {},
  append() {},
  logEntries: () => [],
  trimLog() {},
  logNames: () => [],
  transaction: (fn) => fn(),
  deleteNamespace() {},
  deleteLogs() {},
  close() {},
};
