// The operation log's types: what an entry carries and what a replica can ask of the log.

/** One replicated operation as every replica reads it from the log. */
export interface LogEntry {
  /** Stream id (ms-seq): the total order of all operations of all replicas. */
  id: string;
  op: string;
  args: unknown[];
  /** Sandbox time of the operation (ms), so every replica stamps it alike. */
  at: number;
  /** Random secret the replica derives the operation's ids from (same ids everywhere). */
  seed: string;
  /** Replica that wrote it. */
  from: string;
  /** The writer applied it already (applied first locally, then shared): it skips its own copy. */
  local: boolean;
}

export interface SubmitOptions {
  /**
   * The args are plain JSON (a round trip through JSON gives them back unchanged): this replica applies
   * its own entry from them when the follower reads it back, instead of parsing the entry again.
   */
  plain?: boolean;
}

export type Applier = (entry: LogEntry) => unknown;

export interface StartOptions {
  from?: string;
  /** Runs after each batch of entries is applied, before the next is read (log compaction). */
  afterBatch?: (last: string, applied: number) => Promise<void>;
}

/**
 * The shared sandbox's operation log: a Redis stream every replica reads in the same order and applies
 * to its own in-memory state, so ids, stream numbers and audit chains come out alike everywhere.
 * `submit` waits for the operation's result on this replica; `share` sends an operation already
 * applied here; `sync` waits until everything written before the call is applied here.
 * @example const log = createOpLog(engine); await log.start(apply); const c = await log.submit('x', [1], now);
 */
export interface OpLog {
  /** The stream's key in Redis. */
  readonly key: string;
  /** Follows the log from `from` (the entry a snapshot covers; default its start); `afterBatch` runs between batches. */
  start(apply: Applier, opts?: StartOptions): Promise<void>;
  submit<T>(op: string, args: unknown[], at: number, opts?: SubmitOptions): Promise<T>;
  /**
   * Appends through the caller's script, atomically with the script's own writes: `run` gets the
   * entry's JSON and the log's key, appends with `XADD <key> * e <entry>` and answers ['new', id]; any
   * other answer means it appended nothing and is returned as is.
   */
  submitVia<T>(
    op: string,
    args: unknown[],
    at: number,
    run: (entry: string, key: string) => Promise<string[]>,
    opts?: SubmitOptions,
  ): Promise<{ appended: true; value: T } | { appended: false; reply: string[] }>;
  share(op: string, args: unknown[], at: number): void;
  /** Resolves when every `share` so far is in Redis (a response waits for it: read-your-writes on any replica). */
  drain(): Promise<void>;
  sync(): Promise<void>;
  /** Resolves once the entry `id` (and everything before it) is applied here. */
  reach(id: string): Promise<void>;
  /** Resolves once the log written before `start` is applied here (the replay at start-up is over). */
  caughtUp(): Promise<void>;
  /**
   * True when every change this replica applied first and shared (`share`) is in the log at or before
   * the last entry applied here: its state is then exactly the log's up to `applied()` (a snapshot may
   * be taken).
   */
  quiet(): boolean;
  /** Id of the last entry applied here. */
  applied(): string;
  close(): Promise<void>;
}
