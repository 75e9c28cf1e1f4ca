// The status stream's feeds with `--data-dir` (or a shared sandbox's snapshots): every message written
// through, the retained window put back at start. Log names and records as before: `feed:<key>`, one
// entry per message under its id.
import type { MaybePromise } from '../ports/maybe-promise.ts';
import type { FeedMessage, FeedRepository } from '../ports/feeds.ts';
import type { Persistence } from './persistence.ts';

const FEED = 'feed:';
/** Logs are trimmed to their in-memory window every this many appends. */
const TRIM_EVERY = 1000;

/**
 * A feed repository whose appends also go to `p` in the same synchronous step (an acknowledged message
 * is stored). Without durable persistence the repository itself comes back (the memory path pays nothing).
 * @example const repository = durableFeeds(createFeedStore(), persistence, retention);
 */
export function durableFeeds<R extends FeedRepository>(repository: R, p: Persistence, retention: number): R {
  if (!p.durable) return repository;
  for (const log of p.logNames(FEED))
    settle(repository.load(log.slice(FEED.length), [...p.logEntries<FeedMessage>(log)].slice(-retention), retention));
  return {
    ...repository,
    append(key: string, m: FeedMessage, keep: number) {
      return kept(repository.append(key, m, keep), () => {
        p.append(FEED + key, m.id, m);
        if (m.id % TRIM_EVERY === 0) p.trimLog(FEED + key, m.id - retention + 1);
      });
    },
    clear() {
      return after(repository.clear(), () => p.deleteLogs(FEED));
    },
  };
}

/** Runs `then` once `write` is done: in the same step when the repository answered at once. */
export function after(write: MaybePromise<void>, then: () => void): MaybePromise<void> {
  if (write instanceof Promise) return write.then(then);
  then();
}

/** Runs `then` when the repository kept the record: in the same step when it answered at once. */
export function kept(write: MaybePromise<boolean>, then: () => void): MaybePromise<boolean> {
  if (write instanceof Promise)
    return write.then((ok) => {
      if (ok) then();
      return ok;
    });
  if (write) then();
  return write;
}

/** A load the start-up cannot wait for: a repository answering later must not lose its failure. */
export function settle(load: MaybePromise<void>): void {
  if (load instanceof Promise) load.catch(() => {});
}
