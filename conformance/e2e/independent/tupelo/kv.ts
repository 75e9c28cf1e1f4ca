// A stand-in for Deno KV on Node: ordered keys, versionstamps, atomic sums, a delayed queue with a
// backoff schedule and watch. The team builds for Deno Deploy; this keeps the same shapes so the code
// reads the way it would there (versionstamps as ids and cursors, queues for deliveries).
export type KvKey = readonly (string | number)[];
export interface KvEntry<T> {
  key: KvKey;
  value: T;
  versionstamp: string;
}
type Watcher = (key: string) => void;
interface QueueItem {
  value: unknown;
  backoff: number[];
}

const enc = (key: KvKey): string =>
  key.map((p) => (typeof p === 'number' ? `n${String(p).padStart(16, '0')}` : `s${p}`)).join('\u0000');

export class Kv {
  #rows = new Map<string, KvEntry<unknown>>();
  #stamp = 0n;
  #watchers = new Set<Watcher>();
  #timers = new Set<NodeJS.Timeout>();
  #listener: ((v: unknown) => Promise<void>) | undefined;
  #closed = false;

  /** 20 hex digits, strictly increasing: Deno KV's versionstamp form. */
  nextStamp(): string {
    this.#stamp += 1n;
    return this.#stamp.toString(16).padStart(20, '0');
  }
  get<T>(key: KvKey): KvEntry<T> | undefined {
    return this.#rows.get(enc(key)) as KvEntry<T> | undefined;
  }
  set<T>(key: KvKey, value: T): KvEntry<T> {
    const entry = { key, value, versionstamp: this.nextStamp() };
    this.#rows.set(enc(key), entry);
    for (const w of this.#watchers) w(enc(key));
    return entry;
  }
  delete(key: KvKey): void {
    this.#rows.delete(enc(key));
  }
  /** Entries under a prefix in key order (reverse: newest first for numbered keys). */
  list<T>(prefix: KvKey, reverse = false): KvEntry<T>[] {
    const p = `${enc(prefix)}\u0000`;
    const out = [...this.#rows.entries()].filter(([k]) => k.startsWith(p));
    out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (reverse) out.reverse();
    return out.map(([, v]) => v as KvEntry<T>);
  }
  /** Atomic sum (KvU64 in Deno), returning the new value. */
  sum(key: KvKey, n: number): number {
    const cur = this.get<number>(key)?.value ?? 0;
    return this.set(key, cur + n).value;
  }
  watch(fn: Watcher): () => void {
    this.#watchers.add(fn);
    return () => this.#watchers.delete(fn);
  }
  listenQueue(fn: (v: unknown) => Promise<void>): void {
    this.#listener = fn;
  }
  /** enqueue with delay and backoffSchedule: a throwing handler is retried after the next backoff step. */
  enqueue(value: unknown, opts: { delay?: number; backoffSchedule?: number[] } = {}): void {
    this.#schedule({ value, backoff: [...(opts.backoffSchedule ?? [])] }, opts.delay ?? 0);
  }
  #schedule(item: QueueItem, delay: number): void {
    if (this.#closed) return;
    const t = setTimeout(async () => {
      this.#timers.delete(t);
      try {
        await this.#listener?.(item.value);
      } catch {
        const next = item.backoff.shift();
        if (next !== undefined) this.#schedule(item, next);
      }
    }, delay);
    this.#timers.add(t);
  }
  close(): void {
    this.#closed = true;
    for (const t of this.#timers) clearTimeout(t);
    this.#watchers.clear();
  }
}
