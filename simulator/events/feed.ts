import { STREAM_DEFAULTS } from '../contract/simulator-defaults.ts';
import { createClock, type Clock } from '../lib/clock.ts';
import { isoTime } from '../lib/iso-time.ts';
import { RingBuffer } from '../lib/ring-buffer.ts';

/** The feed anyone may read without credentials: service status messages, never tenant data. */
export const PUBLIC_FEED = 'public';

/** A tenant's own feed key. @example tenantFeed('harbour-kitchens') // 'tenant:harbour-kitchens' */
export function tenantFeed(tenant: string): `tenant:${string}` {
  return `tenant:${tenant}`;
}

/** One message of a feed. Shared by every reader, so frozen. */
export interface FeedMessage {
  /** 1, 2, 3 … per feed. */
  readonly id: number;
  readonly event: string;
  readonly data: unknown;
  readonly at: string;
}

/**
 * What follows a cursor: the retained messages, or an explicit answer when the cursor cannot be honoured
 * without a gap (older than the retention window) or was never issued (beyond the last id).
 */
export type AfterResult =
  | { messages: FeedMessage[] }
  | { expired: { cursor: number; oldestRetained: number; lastId: number } }
  | { ahead: { cursor: number; lastId: number } };

export type FeedListener = (message: FeedMessage) => void;

/** A subscriber as an object (an open stream): no closure per subscriber. */
export interface FeedSubscriber {
  deliver(message: FeedMessage): void;
}

export interface FeedStore {
  readonly retention: number;
  /** Appends a message with the feed's next id and tells every subscriber. */
  publish(key: string, event: string, data: unknown): FeedMessage;
  /** Message `id` while it is retained. */
  get(key: string, id: number): FeedMessage | undefined;
  /** Everything after `cursor` (the last id read), oldest first. */
  after(key: string, cursor: number): AfterResult;
  /** Id of the newest message (0 for a feed without messages). */
  lastId(key: string): number;
  /** Id of the oldest retained message (lastId + 1 while nothing is retained). */
  oldestRetained(key: string): number;
  /** Calls `listener` for every later message; returns the unsubscribe function. */
  subscribe(key: string, listener: FeedListener): () => void;
  /** Like subscribe, for an object subscriber: `deliver` is called for every later message until `detach`. */
  attach(key: string, subscriber: FeedSubscriber): void;
  detach(key: string, subscriber: FeedSubscriber): void;
  subscriberCount(key: string): number;
  /** Puts back persisted messages (oldest first) after a restart; numbering continues after the last. */
  restore(key: string, messages: FeedMessage[]): void;
  /** Every feed that has messages (persistence, reset). */
  keys(): string[];
  clear(): void;
}

const EVENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;

// The JSON of each message's data, made when a reader (a stream, persistence) first needs it and
// then shared: a message nobody reads is never serialised.
const dataJson = new WeakMap<FeedMessage, string>();

/** The data of a published message as JSON text (computed once per message, on first use). */
export function messageDataJson(m: FeedMessage): string {
  let json = dataJson.get(m);
  if (json === undefined) {
    json = JSON.stringify(m.data);
    dataJson.set(m, json);
  }
  return json;
}

interface Feed {
  ring?: RingBuffer<FeedMessage>;
  lastId: number;
  listeners: Set<FeedListener | FeedSubscriber>;
}

/**
 * Named feeds with per-feed numbering and a retention ring buffer each: memory stays at `retention`
 * messages per feed however many are published, and subscribers share them (no per-reader copies).
 * @example const feeds = createFeedStore(); feeds.publish(PUBLIC_FEED, 'service.status', { status: 'operational' });
 */
export function createFeedStore(opts: { retention?: number; clock?: Clock } = {}): FeedStore {
  const retention = opts.retention ?? STREAM_DEFAULTS.retention;
  if (!Number.isSafeInteger(retention) || retention < 1)
    throw new RangeError(`retention must be a positive integer, not ${retention}`);
  const clock = opts.clock ?? createClock();
  const feeds = new Map<string, Feed>();
  const feed = (key: string) => {
    let f = feeds.get(key);
    if (!f) {
      f = { lastId: 0, listeners: new Set() };
      feeds.set(key, f);
    }
    return f;
  };
  const oldest = (f: Feed | undefined) => f?.ring?.oldest()?.id ?? (f?.lastId ?? 0) + 1;
  const get = (key: string, id: number) => {
    const f = feeds.get(key);
    const first = f?.ring?.oldest();
    if (!f?.ring?.size || !first) return undefined;
    return f.ring.at(id - first.id);
  };

  return {
    retention,
    publish(key, event, data) {
      if (!EVENT_NAME.test(event))
        throw new TypeError(
          `event names are 1-100 letters, digits and . _ : - (got ${JSON.stringify(event).slice(0, 40)})`,
        );
      // What JSON cannot carry at the top is refused here; the data itself is serialised on first read.
      if (typeof data === 'function' || typeof data === 'symbol' || typeof data === 'bigint')
        throw new TypeError('event data must be JSON');
      const f = feed(key);
      f.ring ??= new RingBuffer<FeedMessage>(retention);
      const message: FeedMessage = Object.freeze({
        id: f.lastId + 1,
        event,
        data: data ?? null,
        at: isoTime(clock.now()),
      });
      f.lastId = message.id;
      f.ring.push(message);
      for (const listener of f.listeners) {
        try {
          if (typeof listener === 'function') listener(message);
          else listener.deliver(message);
        } catch {
          // One failing reader must not keep the message from the others.
        }
      }
      return message;
    },
    get,
    after(key, cursor) {
      const f = feeds.get(key);
      const lastId = f?.lastId ?? 0;
      if (cursor > lastId) return { ahead: { cursor, lastId } };
      const first = oldest(f);
      if (cursor < first - 1) return { expired: { cursor, oldestRetained: first, lastId } };
      const ring = f?.ring;
      return { messages: ring ? ring.slice(cursor + 1 - first) : [] };
    },
    lastId: (key) => feeds.get(key)?.lastId ?? 0,
    oldestRetained: (key) => oldest(feeds.get(key)),
    subscribe(key, listener) {
      const f = feed(key);
      f.listeners.add(listener);
      return () => void f.listeners.delete(listener);
    },
    attach(key, subscriber) {
      feed(key).listeners.add(subscriber);
    },
    detach(key, subscriber) {
      feeds.get(key)?.listeners.delete(subscriber);
    },
    subscriberCount: (key) => feeds.get(key)?.listeners.size ?? 0,
    restore(key, messages) {
      const f = feed(key);
      f.ring ??= new RingBuffer<FeedMessage>(retention);
      for (const m of messages) {
        if (m.id <= f.lastId) continue;
        f.ring.push(Object.freeze({ ...m }));
        f.lastId = m.id;
      }
    },
    keys: () => [...feeds.keys()].filter((k) => (feeds.get(k)?.lastId ?? 0) > 0),
    clear() {
      // Retained messages go; numbering goes on, so a connected reader never sees an id twice.
      for (const f of feeds.values()) f.ring = undefined;
    },
  };
}
