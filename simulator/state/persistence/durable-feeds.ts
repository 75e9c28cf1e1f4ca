// The status stream's feeds with `--data-dir` (or a shared sandbox's snapshots): every message written
// through, the retained window put back at start. Log names and records as before: `feed:<key>`, one
// entry per message under its id.
import type { FeedMessage, FeedRepository } from '../ports/feeds.ts';
import type { Persistence } from './persistence.ts';
import { after, afterLoad, kept, loadEach, logWriteThrough } from './write-through.ts';

const FEED = 'feed:';

/**
 * A feed repository whose appends also go to `p` in the same synchronous step (an acknowledged message
 * is stored); inside a transaction of `p` an append answers once it is committed, so its subscribers are
 * told after that. Without durable persistence the repository itself comes back (the memory path pays nothing).
 * @example const repository = durableFeeds(createFeedStore(), persistence, retention);
 */
export function durableFeeds<R extends FeedRepository>(repository: R, p: Persistence, retention: number): R {
  if (!p.durable) return repository;
  const log = logWriteThrough(p, FEED, retention);
  const ready = afterLoad(
    loadEach(p.logNames(FEED), (log) =>
      repository.load(log.slice(FEED.length), [...p.logEntries<FeedMessage>(log)].slice(-retention), retention),
    ),
  );
  return {
    ...repository,
    append(key: string, m: FeedMessage, keep: number) {
      return ready(() => {
        const ok = kept(repository.append(key, m, keep), () => {
          log.append(key, m.id, m);
        });
        // Inside a transaction (a call's writes committed together) the message is saved at its commit:
        // the subscribers are told then, never before (a stream message never goes out unsaved).
        const saved = ok === true ? p.committed?.() : undefined;
        return saved ? saved.then(() => true) : ok;
      });
    },
    clear() {
      return ready(() => after(repository.clear(), log.clear));
    },
  };
}
