import type { MaybePromise } from './maybe-promise.ts';

/** One message of a stream feed. Shared by every reader, so frozen. */
export interface FeedMessage {
  /** 1, 2, 3 … per feed. */
  readonly id: number;
  readonly event: string;
  readonly data: unknown;
  readonly at: string;
}

/**
 * Where the status stream's feeds keep their messages: per feed key the newest messages (a bounded
 * window, oldest dropped first) and the last id ever kept. It numbers nothing, checks no name, reads no
 * clock and tells no subscriber: the feed service (services/feed-service.ts) does. Every method may
 * answer with a promise (a store across the network); the memory repository answers at once, and its
 * hot readers (`get`, `oldestId`) allocate nothing.
 * @example andThen(repository.lastId('public'), (last) => repository.append('public', message(last + 1), 10_000)) // true
 */
export interface FeedRepository {
  /**
   * Keeps `message` as its feed's newest, dropping the oldest past `keep` messages, if its id follows the
   * feed's last id; answers false and keeps nothing when it does not (another writer took that id first:
   * one check-and-append, so a store shared by several writers never holds an id twice).
   */
  append(key: string, message: FeedMessage, keep: number): MaybePromise<boolean>;
  /** Puts back stored messages (oldest first) after a restart: those not after the last id are skipped. */
  load(key: string, messages: readonly FeedMessage[], keep: number): MaybePromise<void>;
  /** Message `id` while it is kept. */
  get(key: string, id: number): MaybePromise<FeedMessage | undefined>;
  /** The kept messages from id `from` on, oldest first (a new array). */
  since(key: string, from: number): MaybePromise<FeedMessage[]>;
  /** Id of the newest message ever kept (0 for a feed without messages; not reset by `clear`). */
  lastId(key: string): MaybePromise<number>;
  /** Id of the oldest kept message (lastId + 1 while none is kept). */
  oldestId(key: string): MaybePromise<number>;
  /** Every feed that has had messages. */
  keys(): MaybePromise<string[]>;
  /** Drops every kept message; last ids stay, so numbering goes on and no id is ever issued twice. */
  clear(): MaybePromise<void>;
}
