import type { MaybePromise } from '../ports/maybe-promise.ts';
import { PersistenceError } from './persistence-error.ts';
import type { Persistence } from './persistence.ts';

/**
 * Inserts stored items into a repository one after another, in stored order: at once when every insert
 * answers at once (the memory repositories), otherwise each after the previous one settled.
 * @example const loaded = loadEach(persistence.entries(NS), ([, r]) => repository.insert(r));
 */
export function loadEach<T>(items: Iterable<T>, insert: (item: T) => MaybePromise<unknown>): MaybePromise<void> {
  let chain: Promise<unknown> | undefined;
  for (const item of items) {
    if (chain) chain = chain.then(() => insert(item));
    else {
      const inserted = insert(item);
      if (inserted instanceof Promise) chain = inserted;
    }
  }
  return chain ? chain.then(() => undefined) : undefined;
}

/**
 * What a decorator's calls wait for: nothing when the load answered at once (the call runs in the same
 * step, so the memory path takes no extra turn), the load otherwise.
 * @example const ready = afterLoad(loaded); insert: (r) => ready(() => andThen(repository.insert(r), write))
 */
export function afterLoad(loaded: MaybePromise<void>): <R>(call: () => MaybePromise<R>) => MaybePromise<R> {
  if (!(loaded instanceof Promise)) return (call) => call();
  return (call) => loaded.then(call);
}

/**
 * Refuses a stored record that is not the shape its store wrote, naming where it was read: a data dir
 * edited by hand or damaged stops the start with a clear line instead of a TypeError later.
 * @example expectRecord(p, 'webhooks', typeof r?.id === 'string' && typeof r?.tenant === 'string', 'a receiver');
 */
export function expectRecord(persistence: Persistence, ok: boolean, what: string): void {
  if (!ok)
    throw new PersistenceError(
      `${persistence.lastRead?.() ?? 'the data dir'}: the stored record is not ${what}; the data dir is damaged. Restore it from a backup or remove it to start fresh.`,
    );
}

/**
 * Runs `then` (the write to persistence) once the repository's `write` is done: in the same step when it
 * answered at once.
 * @example clear: () => ready(() => after(repository.clear(), () => p.deleteLogs('feed:')))
 */
export function after(write: MaybePromise<void>, then: () => void): MaybePromise<void> {
  if (write instanceof Promise) return write.then(then);
  then();
}

/**
 * Runs `then` (the write to persistence) only when the repository kept the record: in the same step when
 * it answered at once. A record the repository refused is never stored.
 * @example append: (key, m, keep) => ready(() => kept(repository.append(key, m, keep), () => p.append(log, m.id, m)))
 */
export function kept(write: MaybePromise<boolean>, then: () => void): MaybePromise<boolean> {
  if (write instanceof Promise)
    return write.then((ok) => {
      if (ok) then();
      return ok;
    });
  if (write) then();
  return write;
}

/** Logs are trimmed to their window every this many appends (not on each: a DELETE per append doubles the writes). */
const TRIM_EVERY = 1000;

/**
 * The write-through of append-only logs named `prefix + name` (stream feeds, audit chains): each kept entry
 * appended at its seq, the log trimmed to its newest `window` entries every 1,000, every log dropped on clear.
 * @example const log = logWriteThrough(p, 'feed:', 10_000); log.append('public', m.id, m);
 */
export function logWriteThrough(p: Persistence, prefix: string, window: number) {
  return {
    append(name: string, seq: number, value: unknown): void {
      p.append(prefix + name, seq, value);
      if (seq % TRIM_EVERY === 0) p.trimLog(prefix + name, seq - window + 1);
    },
    clear: (): void => p.deleteLogs(prefix),
  };
}
