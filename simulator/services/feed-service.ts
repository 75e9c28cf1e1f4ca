import type { Clock } from '../lib/clock.ts';
import { isoTime } from '../lib/iso-time.ts';
import type { FeedMessage, FeedRepository } from '../state/ports/feeds.ts';
import { andThen, type MaybePromise } from '../state/ports/maybe-promise.ts';

export type { FeedMessage };

/**
 * What follows a cursor: the retained messages, or an explicit answer when the cursor cannot be honoured
 * without a gap (older than the retention window) or was never issued (beyond the last id).
 */
export type AfterResult =
  | { messages: FeedMessage[] }
  | { expired: { cursor: number; oldestRetained: number; lastId: number } }
  | { ahead: { cursor: number; lastId: number } };

/** Why a stream does not continue exactly after the requested cursor. */
export interface StreamReset {
  reason: 'cursor_expired' | 'cursor_ahead';
  cursor: number;
  /** The stream continues with this message (everything still retained). */
  oldestRetained: number;
  lastId: number;
}

export type FeedListener = (message: FeedMessage) => void;

/** A subscriber as an object (an open stream): no closure per subscriber. */
export interface FeedSubscriber {
  deliver(message: FeedMessage): void;
}

/**
 * The status stream's feeds: consecutive ids per feed, a retention window, resumption from a cursor,
 * publishing (name and data checked, time stamped, subscribers told). Reads and writes go to the
 * repository and answer at once when it does (memory). Subscribers (`subscribe`, `attach`, `detach`,
 * `subscriberCount`) stay in this process whatever the repository: they are the open streams of this
 * process, objects with sockets that no store across the network can hold.
 * @example const m = await feeds.publish(PUBLIC_FEED, 'service.status', { status: 'operational' }); // m.id 1, 2, 3 …
 */
export interface FeedService {
  /** Messages kept per feed for resumption. */
  readonly retention: number;
  /** Appends a message with the feed's next id and tells every subscriber of this process. */
  publish(key: string, event: string, data: unknown): MaybePromise<FeedMessage>;
  /** Message `id` while it is retained. */
  get(key: string, id: number): MaybePromise<FeedMessage | undefined>;
  /**
   * What a reader positioned after `last` reads next: message last + 1, undefined while it is not
   * published, null when it fell out of the retention window (the reader cannot go on without a gap).
   */
  next(key: string, last: number): MaybePromise<FeedMessage | null | undefined>;
  /** Everything after `cursor` (the last id read), oldest first. */
  after(key: string, cursor: number): MaybePromise<AfterResult>;
  /**
   * Where a stream starts: after the cursor, or, when the cursor is older than the retention window or
   * beyond the last id, from the oldest retained message with the reset explaining why. Without a
   * cursor: live only, after the current last id.
   */
  resume(key: string, cursor: number | undefined): MaybePromise<{ after: number; reset?: StreamReset }>;
  /** Id of the newest message (0 for a feed without messages). */
  lastId(key: string): MaybePromise<number>;
  /** Id of the oldest retained message (lastId + 1 while nothing is retained). */
  oldestRetained(key: string): MaybePromise<number>;
  /** Every feed that has messages (inspector, snapshot). */
  keys(): MaybePromise<string[]>;
  /** Retained messages go; numbering goes on, so a connected reader never sees an id twice. */
  clear(): MaybePromise<void>;
  /** Calls `listener` for every later message; returns the unsubscribe function. */
  subscribe(key: string, listener: FeedListener): () => void;
  /** Like subscribe, for an object subscriber: `deliver` is called for every later message until `detach`. */
  attach(key: string, subscriber: FeedSubscriber): void;
  detach(key: string, subscriber: FeedSubscriber): void;
  subscriberCount(key: string): number;
}

const EVENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;

/** @example const feeds = createFeedService({ repository: createFeedStore(), clock, retention: 10_000 }); */
export function createFeedService(deps: { repository: FeedRepository; clock: Clock; retention: number }): FeedService {
  const { repository: repo, clock, retention } = deps;
  if (!Number.isSafeInteger(retention) || retention < 1)
    throw new RangeError(`retention must be a positive integer, not ${retention}`);
  const subscribers = new Map<string, Set<FeedListener | FeedSubscriber>>();

  const tell = (key: string, message: FeedMessage) => {
    const set = subscribers.get(key);
    if (set)
      for (const s of set) {
        try {
          if (typeof s === 'function') s(message);
          else s.deliver(message);
        } catch {
          // One failing reader must not keep the message from the others.
        }
      }
    return message;
  };
  const append = (key: string, last: number, event: string, data: unknown): MaybePromise<FeedMessage> => {
    const message: FeedMessage = Object.freeze({ id: last + 1, event, data: data ?? null, at: isoTime(clock.now()) });
    const kept = repo.append(key, message, retention);
    if (kept instanceof Promise) return kept.then((ok) => (ok ? tell(key, message) : publishAfter(key, event, data)));
    return kept ? tell(key, message) : publishAfter(key, event, data);
  };
  // Ids are consecutive per feed: the next is lastId + 1, and a writer that lost that id to another
  // (a repository shared across writers or answering later) takes the following one.
  const publishAfter = (key: string, event: string, data: unknown): MaybePromise<FeedMessage> => {
    // The value path takes no closure: publishing is on every write's path.
    const last = repo.lastId(key);
    return last instanceof Promise ? last.then((n) => append(key, n, event, data)) : append(key, last, event, data);
  };
  const members = (key: string) => {
    let set = subscribers.get(key);
    if (!set) {
      set = new Set();
      subscribers.set(key, set);
    }
    return set;
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
      return publishAfter(key, event, data);
    },
    get: (key, id) => repo.get(key, id),
    next(key, last) {
      // Every open stream asks this for every message: no allocation on the value path.
      const oldest = repo.oldestId(key);
      if (oldest instanceof Promise) return oldest.then((o) => (last + 1 < o ? null : repo.get(key, last + 1)));
      return last + 1 < oldest ? null : repo.get(key, last + 1);
    },
    after(key, cursor) {
      return andThen(repo.lastId(key), (lastId) => {
        if (cursor > lastId) return { ahead: { cursor, lastId } };
        return andThen(repo.oldestId(key), (first): MaybePromise<AfterResult> => {
          if (cursor < first - 1) return { expired: { cursor, oldestRetained: first, lastId } };
          return andThen(repo.since(key, cursor + 1), (messages) => ({ messages }));
        });
      });
    },
    resume(key, cursor) {
      return andThen(repo.lastId(key), (lastId) => {
        if (cursor === undefined) return { after: lastId };
        return andThen(repo.oldestId(key), (oldestRetained) => {
          if (cursor > lastId)
            return { after: oldestRetained - 1, reset: { reason: 'cursor_ahead', cursor, oldestRetained, lastId } };
          if (cursor < oldestRetained - 1)
            return { after: oldestRetained - 1, reset: { reason: 'cursor_expired', cursor, oldestRetained, lastId } };
          return { after: cursor };
        });
      });
    },
    lastId: (key) => repo.lastId(key),
    oldestRetained: (key) => repo.oldestId(key),
    keys: () => repo.keys(),
    clear: () => repo.clear(),
    subscribe(key, listener) {
      const set = members(key);
      set.add(listener);
      return () => void set.delete(listener);
    },
    attach(key, subscriber) {
      members(key).add(subscriber);
    },
    detach(key, subscriber) {
      subscribers.get(key)?.delete(subscriber);
    },
    subscriberCount: (key) => subscribers.get(key)?.size ?? 0,
  };
}
