import { RingBuffer } from '../lib/ring-buffer.ts';
import type { FeedMessage, FeedRepository } from './ports/feeds.ts';

interface Feed {
  ring: RingBuffer<FeedMessage> | undefined;
  lastId: number;
}

/**
 * The memory repository of the stream feeds: a ring buffer per feed, so memory stays at `keep` messages
 * per feed however many are published, and every reader shares them (no per-reader copies).
 * @example const store = createFeedStore(); store.append('public', Object.freeze({ id: 1, event: 'service.status', data: null, at }), 10_000);
 */
export function createFeedStore() {
  const feeds = new Map<string, Feed>();
  const feed = (key: string) => {
    let f = feeds.get(key);
    if (!f) {
      f = { ring: undefined, lastId: 0 };
      feeds.set(key, f);
    }
    return f;
  };
  const oldestId = (key: string) => {
    const f = feeds.get(key);
    return f?.ring?.oldest()?.id ?? (f?.lastId ?? 0) + 1;
  };
  return {
    append(key: string, message: FeedMessage, keep: number) {
      const f = feed(key);
      if (message.id !== f.lastId + 1) return false;
      f.ring ??= new RingBuffer<FeedMessage>(keep);
      f.ring.push(message);
      f.lastId = message.id;
      return true;
    },
    load(key: string, messages: readonly FeedMessage[], keep: number) {
      const f = feed(key);
      f.ring ??= new RingBuffer<FeedMessage>(keep);
      for (const m of messages) {
        if (m.id <= f.lastId) continue;
        f.ring.push(Object.freeze({ ...m }));
        f.lastId = m.id;
      }
    },
    get(key: string, id: number) {
      const ring = feeds.get(key)?.ring;
      const first = ring?.oldest();
      return ring && first ? ring.at(id - first.id) : undefined;
    },
    since(key: string, from: number) {
      const ring = feeds.get(key)?.ring;
      return ring ? ring.slice(Math.max(0, from - oldestId(key))) : [];
    },
    lastId: (key: string) => feeds.get(key)?.lastId ?? 0,
    oldestId,
    keys: () => [...feeds.keys()].filter((k) => (feeds.get(k)?.lastId ?? 0) > 0),
    clear() {
      for (const f of feeds.values()) f.ring = undefined;
    },
  } satisfies FeedRepository;
}

/** The memory feed repository. */
export type FeedStore = ReturnType<typeof createFeedStore>;
