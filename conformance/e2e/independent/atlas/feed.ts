// Status feeds: one numbered sequence per tenant plus a public one (service heartbeats only).
import { isoTime } from './http-util.ts';

export const PUBLIC_FEED = '*public*';
export type FeedMessage = { seq: number; event: string; data: string };
type Feed = { messages: FeedMessage[]; subscribers: Set<(m: FeedMessage) => void> };

export type Feeds = {
  publish(feed: string, event: string, payload: Record<string, unknown>): void;
  /** Backlog after `after`, then every live message, in one consecutive sequence. */
  subscribe(feed: string, after: number, onMessage: (m: FeedMessage) => void): () => void;
};

export function createFeeds(): Feeds {
  const feeds = new Map<string, Feed>();
  const feedOf = (key: string): Feed => {
    let f = feeds.get(key);
    if (f === undefined) {
      f = { messages: [], subscribers: new Set() };
      feeds.set(key, f);
    }
    return f;
  };
  return {
    publish(key, event, payload) {
      const f = feedOf(key);
      const seq = f.messages.length + 1;
      const msg = {
        seq,
        event,
        data: JSON.stringify({ sequence: seq, type: event, occurredAt: isoTime(), ...payload }),
      };
      f.messages.push(msg);
      for (const s of f.subscribers) s(msg);
    },
    subscribe(key, after, onMessage) {
      const f = feedOf(key);
      // Synchronous: nothing can be published between the backlog and the subscription.
      for (const m of f.messages) if (m.seq > after) onMessage(m);
      const live = (m: FeedMessage): void => {
        if (m.seq > after) onMessage(m);
      };
      f.subscribers.add(live);
      return () => f.subscribers.delete(live);
    },
  };
}
