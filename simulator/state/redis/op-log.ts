import { randomChars } from '../../lib/ids.ts';
import { type RedisEngine, StoreUnavailableError } from './redis-engine.ts';
import type { Applier, LogEntry, OpLog, StartOptions, SubmitOptions } from './op-log-types.ts';

export type { Applier, LogEntry, OpLog, StartOptions, SubmitOptions } from './op-log-types.ts';

const compare = (a: string, b: string) => {
  const [am = 0, as = 0] = a.split('-').map(Number);
  const [bm = 0, bs = 0] = b.split('-').map(Number);
  return am - bm || as - bs;
};
const SUBMIT_TIMEOUT_MS = 10_000;

export function createOpLog(engine: RedisEngine, key = `${engine.prefix}log`): OpLog {
  let last = '0-0';
  let closed = false;
  let apply: Applier | undefined;
  let afterBatch: StartOptions['afterBatch'];
  // The newest entry this replica shared after applying it here first (see `quiet`).
  let lastShared = '0-0';
  const waiting = new Map<string, { resolve(v: unknown): void; reject(e: unknown): void }>();
  const early = new Map<string, { ok: boolean; value: unknown }>();
  let barriers: { id: string; resolve(): void }[] = [];
  const unsent = new Set<Promise<unknown>>();
  let markCaughtUp: () => void = () => {};
  const caughtUp = new Promise<void>((resolve) => (markCaughtUp = resolve));

  const deliver = (id: string, r: { ok: boolean; value: unknown }) => {
    const w = waiting.get(id);
    if (!w) return void early.set(id, r);
    waiting.delete(id);
    if (r.ok) w.resolve(r.value);
    else w.reject(r.value);
  };

  // Entries this replica wrote with plain args, by seed, until the follower reads them back: applied
  // from the object serialised, not parsed again (the entry's JSON starts with `mineAt` and its seed).
  const held = new Map<string, Omit<LogEntry, 'id'>>();
  const mineAt = `{"from":${JSON.stringify(engine.replicaId)},"seed":"`;
  const heldOf = (raw: string | undefined) => {
    if (!held.size || !raw?.startsWith(mineAt)) return undefined;
    const seed = raw.slice(mineAt.length, raw.indexOf('"', mineAt.length));
    const e = held.get(seed);
    if (e) held.delete(seed);
    return e;
  };

  function applyOne(id: string, fields: string[]) {
    const raw = fields[fields.indexOf('e') + 1];
    last = id;
    let e: Omit<LogEntry, 'id'> | undefined = heldOf(raw);
    try {
      e ??= JSON.parse(raw ?? '') as Omit<LogEntry, 'id'>;
    } catch {
      return; // not an entry of ours: skipped on every replica alike
    }
    const mine = e.from === engine.replicaId;
    if (mine && e.local) return;
    let r: { ok: boolean; value: unknown };
    try {
      const value = apply?.({ ...e, id });
      // A failure of an operation another replica asked for is that replica's to report.
      if (value instanceof Promise) value.catch(() => {});
      r = { ok: true, value };
    } catch (err) {
      r = { ok: false, value: err };
    }
    if (mine) deliver(id, r);
  }

  async function follow() {
    while (!closed) {
      let reply: [string, [string, string[]][]][] | null;
      try {
        reply = await engine.blocking(['XREAD', 'COUNT', 1000, 'BLOCK', 1000, 'STREAMS', key, last]);
      } catch {
        if (closed) return;
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      let applied = 0;
      for (const [, entries] of reply ?? []) {
        for (const [id, fields] of entries) applyOne(id, fields);
        applied += entries.length;
      }
      if (barriers.length) {
        const done = barriers.filter((b) => compare(b.id, last) <= 0);
        barriers = barriers.filter((b) => compare(b.id, last) > 0);
        for (const b of done) b.resolve();
      }
      if (applied && afterBatch) await afterBatch(last, applied);
    }
  }

  // Catching up, coalesced: a call needs the log's tail as read by a command sent after it arrived
  // (that read sees every write acknowledged before the call). One read is in flight at a time; the
  // calls arriving meanwhile share the next one, so a busy replica makes one read per round trip,
  // not one per call. `tick` orders arrivals and sends.
  let tick = 0;
  let reading: { sent: number; tail: Promise<string> } | undefined;
  let queued: Promise<string> | undefined;
  const readTail = () => {
    const sent = ++tick;
    const tail = engine
      .command<[string, string[]][]>(['XREVRANGE', key, '+', '-', 'COUNT', 1])
      .then((t) => t[0]?.[0] ?? '0-0')
      .finally(() => {
        if (reading?.tail === tail) reading = undefined;
      });
    reading = { sent, tail };
    return tail;
  };
  const tailAfter = (arrived: number): Promise<string> => {
    if (!reading) return readTail();
    if (reading.sent > arrived) return reading.tail;
    queued ??= reading.tail
      .catch(() => {})
      .then(() => {
        queued = undefined;
        return readTail();
      });
    return queued;
  };

  // `from` and `seed` lead (see `heldOf`). The seed comes from the id pool: 16 random bytes, as unguessable
  // as before without a system call per entry (the ids of tokens derive from it).
  const entryOf = (op: string, args: unknown[], at: number, local: boolean, plain = false) => {
    const e = { from: engine.replicaId, seed: randomChars(16), op, args, at, local };
    if (plain) held.set(e.seed, e);
    return { json: JSON.stringify(e), seed: e.seed };
  };
  const append = (op: string, args: unknown[], at: number, local: boolean, plain = false) => {
    const { json, seed } = entryOf(op, args, at, local, plain);
    const id = engine.command<string>(['XADD', key, '*', 'e', json]);
    // Not appended (or not known to be): nothing will read it back.
    if (plain) id.catch(() => held.delete(seed));
    return id;
  };

  /** The result of applying our own entry `id` here (the follower reads it back). */
  const resultOf = <T>(id: string): Promise<T> => {
    const r = early.get(id);
    if (r) {
      early.delete(id);
      return r.ok ? Promise.resolve(r.value as T) : Promise.reject(r.value);
    }
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(
          new StoreUnavailableError(`Operation ${id} was written but not read back within 10 s.`, engine.outageStatus),
        );
      }, SUBMIT_TIMEOUT_MS);
      waiting.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v as T);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
    });
  };

  const log: OpLog = {
    key,
    async start(applier, opts = {}) {
      apply = applier;
      if (opts.from) last = opts.from;
      afterBatch = opts.afterBatch;
      void follow();
      await log.sync();
      markCaughtUp();
    },
    caughtUp: () => caughtUp,
    async submit<T>(op: string, args: unknown[], at: number, opts: SubmitOptions = {}) {
      return resultOf<T>(await append(op, args, at, false, opts.plain));
    },
    async submitVia<T>(
      op: string,
      args: unknown[],
      at: number,
      run: (entry: string, key: string) => Promise<string[]>,
      opts: SubmitOptions = {},
    ) {
      const { json, seed } = entryOf(op, args, at, false, opts.plain);
      let reply: string[];
      try {
        reply = await run(json, key);
      } catch (err) {
        held.delete(seed);
        throw err;
      }
      if (reply[0] !== 'new' || !reply[1]) {
        held.delete(seed);
        return { appended: false as const, reply };
      }
      return { appended: true as const, value: await resultOf<T>(reply[1]) };
    },
    share(op, args, at) {
      const p = append(op, args, at, true);
      unsent.add(p);
      p.then(
        (id) => {
          unsent.delete(p);
          if (compare(id, lastShared) > 0) lastShared = id;
        },
        () => unsent.delete(p),
      );
    },
    quiet: () => unsent.size === 0 && compare(lastShared, last) <= 0,
    async drain() {
      if (unsent.size === 0) return;
      const results = await Promise.allSettled([...unsent]);
      const failed = results.find((r) => r.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
    },
    async sync() {
      await log.reach(await tailAfter(++tick));
    },
    async reach(id) {
      if (compare(id, last) <= 0) return;
      await new Promise<void>((resolve, reject) => {
        // Redis went away after answering: do not hold the call forever.
        const timer = setTimeout(() => {
          barriers = barriers.filter((b) => b.id !== id || b.resolve !== done);
          reject(
            new StoreUnavailableError('The operation log could not be read back within 10 s.', engine.outageStatus),
          );
        }, SUBMIT_TIMEOUT_MS);
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        barriers.push({ id, resolve: done });
      });
    },
    applied: () => last,
    async close() {
      closed = true;
      for (const b of barriers) b.resolve();
      barriers = [];
    },
  };
  return log;
}
