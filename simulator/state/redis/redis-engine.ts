import { createHash } from 'node:crypto';
import { ApiError } from '../../core/api-error.ts';
import { newId } from '../../lib/ids.ts';
import { maskUrl } from '../../lib/mask-url.ts';

/** The statuses an outage of the shared store may answer with (`?outage=` of the store URL). */
export type OutageStatus = 500 | 503;

/**
 * The shared store stopped answering while the sandbox runs: the call gets the failure envelope with
 * code internal and, by default, status 500, the pair the interface's error table gives an operational
 * disturbance (its endpoints answer 400, 401, 403, 404, 409, 428, 429 or 500: a 503 is not among them);
 * `?outage=503` on the store URL answers 503 instead, as a gateway in front of a service would. With a
 * hint and Retry-After (the interface's retry guidance covers internal); nothing crashes, and the next
 * call after Redis returns is served again.
 * @example throw new StoreUnavailableError('Redis at redis://127.0.0.1:6379/0 does not answer.', 503);
 */
export class StoreUnavailableError extends ApiError {
  override readonly status: number;
  constructor(detail: string, status: OutageStatus = 500) {
    super('internal', {
      message: 'The shared state of this sandbox is unreachable.',
      detail,
      hint: 'Retry in a few seconds with the same Idempotency-Key; the sandbox answers again once its Redis is back.',
      headers: { 'retry-after': '1' },
    });
    this.status = status;
  }
}

type Arg = string | number;

/** A command without a reply this long fails with StoreUnavailableError (node-redis' own default). */
export const COMMAND_TIMEOUT_MS = 5000;
/** The watchdog looks this often, a tenth of the timeout: a command fails within 10 % after it. */
const watchdogMs = (timeoutMs: number) => Math.max(10, Math.round(timeoutMs / 10));

/** The few calls of a node-redis client this engine uses (kept local: the package is optional). */
interface RawClient {
  connect(): Promise<unknown>;
  sendCommand(args: readonly string[]): Promise<unknown>;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  readonly isReady: boolean;
  destroy(): void;
}

/**
 * One Redis (or Valkey) deployment shared by every replica: a command connection, a second one for
 * blocking reads, and the key prefix of this sandbox.
 * @example const engine = await connectRedis('redis://127.0.0.1:6379/0'); await engine.command(['PING']);
 */
export interface RedisEngine {
  /** The URL with any password masked (for messages). */
  readonly url: string;
  readonly prefix: string;
  /** Names this process among the replicas (leases, the origin of log entries). */
  readonly replicaId: string;
  /** The status calls answer while Redis is away (500 unless the URL says `?outage=503`). */
  readonly outageStatus: OutageStatus;
  available(): boolean;
  command<T = unknown>(args: readonly Arg[]): Promise<T>;
  /** Runs a Lua script atomically (EVAL). */
  script<T = unknown>(lua: string, keys: readonly string[], args: readonly Arg[]): Promise<T>;
  /** A command on the connection reserved for blocking reads (XREAD BLOCK). */
  blocking<T = unknown>(args: readonly Arg[]): Promise<T>;
  close(): Promise<void>;
}

export { maskUrl } from '../../lib/mask-url.ts';

/**
 * Connects to the shared store; unreachable at start is an Error naming the URL (ncs serve: exit 2).
 * Afterwards the clients reconnect on their own, and commands fail at once while Redis is away.
 */
export async function connectRedis(
  url: string,
  opts: {
    prefix?: string;
    outageStatus?: OutageStatus;
    /** How long a command may go unanswered (default COMMAND_TIMEOUT_MS; tests shorten it). */
    commandTimeoutMs?: number;
  } = {},
): Promise<RedisEngine> {
  const outageStatus = opts.outageStatus ?? 500;
  const timeoutMs = opts.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
  const WATCHDOG_MS = watchdogMs(timeoutMs);
  const shown = maskUrl(url);
  let mod: { createClient(options: object): unknown };
  try {
    mod = (await import('redis')) as unknown as typeof mod;
  } catch {
    throw new Error(`--store ${shown} needs the optional package "redis": npm install redis`);
  }
  let started = false;
  const make = () =>
    mod.createClient({
      url,
      RESP: 2,
      disableOfflineQueue: true,
      // No timer per command (node-redis' default arms AbortSignal.timeout for each one, a timer, a
      // signal and a listener per call on the hot path): one watchdog below bounds them all instead.
      commandOptions: { timeout: 0 },
      socket: {
        connectTimeout: 3000,
        // Before the first connection: give up (exit 2). After: keep trying, at most once a second.
        reconnectStrategy: (retries: number, cause: Error) => (started ? Math.min(50 * 2 ** retries, 1000) : cause),
      },
    }) as RawClient;
  const main = make();
  const reader = make();
  for (const c of [main, reader]) c.on('error', () => {}); // reconnects on its own; calls fail meanwhile
  try {
    await main.connect();
    await reader.connect();
  } catch (err) {
    main.destroy();
    reader.destroy();
    throw new Error(`cannot reach the shared store at ${shown}: ${(err as Error)?.message || String(err)}`);
  }
  started = true;
  const digests = new Map<string, string>();
  const gone = () => new StoreUnavailableError(`Redis at ${shown} does not answer.`, outageStatus);
  // Commands in flight, oldest first, stamped with the watchdog's tick: one that no reply ended within
  // the command timeout (a Redis paused or cut off without a reset) fails its caller, as a timed-out
  // command did, without a timer of its own.
  let tick = 0;
  const inFlight = new Set<{ tick: number; fail(): void }>();
  const watchdog = setInterval(() => {
    tick++;
    for (const c of inFlight) {
      if ((tick - c.tick) * WATCHDOG_MS < timeoutMs) break;
      inFlight.delete(c);
      c.fail();
    }
  }, WATCHDOG_MS);
  watchdog.unref();
  const call = <T>(client: RawClient, args: readonly Arg[]): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const c = { tick, fail: () => reject(gone()) };
      inFlight.add(c);
      client.sendCommand(args.map(String)).then(
        (value) => {
          inFlight.delete(c);
          resolve(value as T);
        },
        (err: unknown) => {
          inFlight.delete(c);
          reject(client.isReady ? err : gone());
        },
      );
    });
  return {
    url: shown,
    prefix: opts.prefix ?? 'ncs:',
    replicaId: newId('replica', 9),
    outageStatus,
    available: () => main.isReady,
    command: (args) => call(main, args),
    // By digest (EVALSHA): the script's text crosses the wire and is hashed by Redis once, not per
    // call; after a Redis restart (scripts flushed) the first call loads it again with EVAL.
    async script<T>(lua: string, keys: readonly string[], args: readonly Arg[]) {
      let sha = digests.get(lua);
      if (!sha) {
        sha = createHash('sha1').update(lua).digest('hex');
        digests.set(lua, sha);
      }
      try {
        return await call<T>(main, ['EVALSHA', sha, keys.length, ...keys, ...args]);
      } catch (err) {
        if (!String((err as Error)?.message).startsWith('NOSCRIPT')) throw err;
        return call<T>(main, ['EVAL', lua, keys.length, ...keys, ...args]);
      }
    },
    blocking: (args) => call(reader, args),
    async close() {
      clearInterval(watchdog);
      main.destroy();
      reader.destroy();
    },
  };
}
