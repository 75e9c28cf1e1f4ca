// The shared sandbox: several `ncs serve` processes on one Redis. Each replica keeps the whole state
// in memory, as a single sandbox does, and changes it only by applying the operations of one log (a
// Redis stream) in the same order as every other replica, with the operation's own time and id seed:
// connections, stream numbers, audit chains, receivers, deliveries, tokens, clock and faults come out
// alike everywhere. What must be decided once across replicas at the moment of a call is decided in
// Redis itself: idempotency records (set-if-absent with an in-flight lease), rate-limit counters and
// the lease of each webhook attempt.
import { readSnapshot, SNAPSHOT_EVERY, type Snapshot } from '../state/redis/log-compaction.ts';
import { createOpLog } from '../state/redis/op-log.ts';
import { createSnapshotPersistence } from '../state/redis/snapshot-persistence.ts';
import { connectRedis, type OutageStatus } from '../state/redis/redis-engine.ts';
import { replayClock, type ReplayClock } from './replay-clock.ts';
import { shareSandbox } from './shared-replica.ts';
import type { SharedStoreParts, SnapshotExtras } from './shared-store-parts.ts';
import { sharedStoresOf } from './shared-stores.ts';

// The store and its connection live here; replica wiring, stores and request sharing live beside.
export { replayClock, type ReplayClock, shareSandbox, sharedStoresOf, type SharedStoreParts, type SnapshotExtras };

/** A connected shared store: `ncs serve --store redis://…` (or NCS_STORE). */
export interface SharedStore extends SharedStoreParts {
  /**
   * What createSandbox wires in (carried by the store, so the default path never loads this module:
   * `serve` imports it only for `--store`).
   */
  wiring: { replayClock: typeof replayClock; sharedStoresOf: typeof sharedStoresOf; shareSandbox: typeof shareSandbox };
  /** A store of its own under this one's prefix (a per-run namespace), on new connections. */
  namespace(name: string): Promise<SharedStore>;
}

/**
 * Connects to Redis; unreachable is an Error naming the URL (ncs serve prints it and exits 2).
 * @example const shared = await openSharedStore('redis://127.0.0.1:6379/0'); createSandbox({ shared });
 */
export async function openSharedStore(url: string): Promise<SharedStore> {
  if (!/^rediss?:\/\//.test(url)) throw new Error(`--store takes a redis:// or rediss:// URL (got "${url}")`);
  // ?prefix=<name> keeps several sandboxes apart on one Redis database (keys under ncs:<name>:).
  const parsed = new URL(url);
  const name = parsed.searchParams.get('prefix');
  if (name !== null && !/^[A-Za-z0-9._-]{1,64}$/.test(name))
    throw new Error(`--store: prefix must be 1-64 letters, digits, . _ - (got "${name}")`);
  parsed.searchParams.delete('prefix');
  // ?compact=<entries>: how many log entries between two snapshots (the log is trimmed behind them).
  const compact = parsed.searchParams.get('compact');
  if (compact !== null && !/^[1-9]\d{0,8}$/.test(compact))
    throw new Error(`--store: compact must be a number of log entries, 1 or more (got "${compact}")`);
  parsed.searchParams.delete('compact');
  // ?outage=503: the status calls answer while Redis is away (default 500, the interface's pair for internal).
  const outage = parsed.searchParams.get('outage');
  if (outage !== null && outage !== '500' && outage !== '503')
    throw new Error(`--store: outage must be 500 or 503 (got "${outage}")`);
  parsed.searchParams.delete('outage');
  const settings = {
    compactEvery: compact ? Number(compact) : SNAPSHOT_EVERY,
    compactGrows: compact === null,
    outageStatus: (outage === '503' ? 503 : 500) as OutageStatus,
  };
  return connectStore(parsed.toString(), name ? `ncs:${name}:` : 'ncs:', settings);
}

/** A snapshot's text: the stores' records and logs, plus the extras of shareSandbox. */
export function parseSnapshot(snapshot: Snapshot | undefined) {
  if (!snapshot) return undefined;
  const { stores, ...extras } = JSON.parse(snapshot.state) as {
    stores: Parameters<typeof createSnapshotPersistence>[0];
  };
  return { id: snapshot.id, stores, extras: extras as SnapshotExtras };
}

async function connectStore(
  url: string,
  prefix: string,
  settings: { compactEvery: number; compactGrows: boolean; outageStatus: OutageStatus },
): Promise<SharedStore> {
  const { compactEvery, compactGrows, outageStatus } = settings;
  const engine = await connectRedis(url, { prefix, outageStatus });
  let latest: ReturnType<typeof parseSnapshot>;
  try {
    latest = parseSnapshot(await readSnapshot(engine));
  } catch (err) {
    await engine.close();
    throw new Error(`the snapshot of the shared store at ${engine.url} does not load: ${(err as Error).message}`);
  }
  return {
    engine,
    log: createOpLog(engine),
    persistence: createSnapshotPersistence(latest?.stores),
    snapshot: latest ? { id: latest.id, extras: latest.extras } : undefined,
    compactEvery,
    compactGrows,
    namespace: (name) => connectStore(url, `${prefix}${name}:`, settings),
    wiring: { replayClock, sharedStoresOf, shareSandbox },
  };
}
