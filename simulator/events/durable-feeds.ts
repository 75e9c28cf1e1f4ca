// The status stream's feeds with `--data-dir`: every message written through, the retained window
// restored at start. Here, above the state layer, because it wraps the feed store (events/feed.ts).
import type { Persistence } from '../state/persistence/persistence.ts';
import type { FeedMessage, FeedStore } from './feed.ts';

const FEED = 'feed:';
/** Logs are trimmed to their in-memory window every this many appends. */
const TRIM_EVERY = 1000;

/**
 * A feed store that writes every message through and restores the retained window at start.
 * @example const feeds = durableFeeds(createFeedStore({ retention }), persistence, retention);
 */
export function durableFeeds(feeds: FeedStore, p: Persistence, retention: number): FeedStore {
  if (!p.durable) return feeds;
  for (const log of p.logNames(FEED))
    feeds.restore(log.slice(FEED.length), [...p.logEntries<FeedMessage>(log)].slice(-retention));
  return {
    ...feeds,
    publish(key, event, data) {
      const m = feeds.publish(key, event, data);
      p.append(FEED + key, m.id, m);
      if (m.id % TRIM_EVERY === 0) p.trimLog(FEED + key, m.id - retention + 1);
      return m;
    },
    clear() {
      feeds.clear();
      p.deleteLogs(FEED);
    },
  };
}
