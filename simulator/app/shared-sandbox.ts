// The shared sandbox: several `ncs serve` processes on one Redis. Each replica keeps the whole state
// in memory, as a single sandbox does, and changes it only by applying the operations of one log (a
// Redis stream) in the same order as every other replica, with the operation's own time and id seed:
// connections, stream numbers, audit chains, receivers, deliveries, tokens, clock and faults come out
// alike everywhere. What must be decided once across replicas at the moment of a call is decided in
// Redis itself: idempotency records (set-if-absent with an in-flight lease), rate-limit counters and
// the lease of each webhook attempt.
import { createOpLog, type OpLog } from '../state/redis/op-log.ts';
import { connectRedis, type RedisEngine } from '../state/redis/redis-engine.ts';
import { replayClock, type ReplayClock } from './replay-clock.ts';
import { shareSandbox } from './shared-replica.ts';
import { sharedStoresOf } from './shared-stores.ts';

// The store and its connection live here; replica wiring, stores and request sharing live beside.
export { replayClock, type ReplayClock, shareSandbox, sharedStoresOf };

/** A connected shared store: `ncs serve --store redis://…` (or NCS_STORE). */
export interface SharedStore {
  engine: RedisEngine;
  log: OpLog;
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
  return connectStore(parsed.toString(), name ? `ncs:${name}:` : 'ncs:');
}

async function connectStore(url: string, prefix: string): Promise<SharedStore> {
  const engine = await connectRedis(url, { prefix });
  return {
    engine,
    log: createOpLog(engine),
    namespace: (name) => connectStore(url, `${prefix}${name}:`),
    wiring: { replayClock, sharedStoresOf, shareSandbox },
  };
}
