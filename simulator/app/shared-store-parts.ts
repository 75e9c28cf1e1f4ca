// What a replica's wiring needs of a connected shared store (shared-replica.ts, shared-stores.ts): the
// engine, the log and the snapshot it starts from. SharedStore (shared-sandbox.ts) adds how it was made.
import type { OpLog } from '../state/redis/op-log.ts';
import type { RedisEngine } from '../state/redis/redis-engine.ts';
import type { SnapshotPersistence } from '../state/redis/snapshot-persistence.ts';

/** What a snapshot holds beside the stores' records: the shared parts kept outside them. */
export interface SnapshotExtras {
  [part: string]: unknown;
}

/** A connected shared store, as a replica uses it. */
export interface SharedStoreParts {
  engine: RedisEngine;
  log: OpLog;
  /** Where this replica's stores write through: what a snapshot keeps of them (built from the latest one). */
  persistence: SnapshotPersistence;
  /** The latest snapshot when this replica connected (it starts from there), without its stores' part. */
  snapshot: { id: string; extras: SnapshotExtras } | undefined;
  /** Entries between two snapshots (log compaction). */
  compactEvery: number;
  /** Whether the interval grows with the snapshot's size (the default; a `?compact=` given is kept exactly). */
  compactGrows: boolean;
}
