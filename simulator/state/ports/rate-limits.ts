import type { MaybePromise } from './maybe-promise.ts';

/** One rate limit: at most `limit` calls per fixed window of `windowSeconds`. */
export interface RateLimitSettings {
  limit: number;
  windowSeconds: number;
}

/**
 * The simulator's choices (the interface does not show its values): `default` is what every sandbox
 * starts with; `low` makes retry logic easy to exercise (`ncs serve --rate-limit-preset low`).
 */
export const RATE_LIMIT_PRESETS = {
  default: { limit: 1200, windowSeconds: 60 },
  low: { limit: 5, windowSeconds: 10 },
} as const satisfies Record<string, RateLimitSettings>;

export type RateLimitPreset = keyof typeof RATE_LIMIT_PRESETS;

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends (at least 1); what Retry-After says when refused. */
  resetSeconds: number;
}

/**
 * What the middleware, control plane and inspector use: the rate-limit service over the memory
 * repository answers at once, the shared store (Redis) counts across replicas with a promise.
 */
export interface RateLimitPort {
  settings(): RateLimitSettings | false;
  /** New settings start every window afresh. */
  configure(settings: RateLimitSettings | false): MaybePromise<void>;
  /** Counts one call against `key`; undefined when limiting is off. A shared store (Redis) answers with a promise. */
  hit(key: string): MaybePromise<RateLimitDecision> | undefined;
  clear(): MaybePromise<void>;
}

/** One fixed window of one key: when it started (sandbox ms) and the calls counted in it. */
export interface RateLimitWindow {
  start: number;
  count: number;
}

/**
 * Where the counters are kept: one window per key. It knows no clock, limit or window length: those
 * are the rate-limit service's (services/rate-limit-service.ts). Every method may answer a promise.
 * @example andThen(repository.get(key), (w) => w?.count ?? 0)
 */
export interface RateLimitRepository {
  /** The key's window: read it, never change it (memory hands out its own record). */
  get(key: string): MaybePromise<RateLimitWindow | undefined>;
  /** Sets the key's window (start and count). */
  put(key: string, start: number, count: number): MaybePromise<void>;
  /** How many keys have a window. */
  size(): MaybePromise<number>;
  /** Every key with its window (read them, never change them). */
  entries(): MaybePromise<Iterable<[string, RateLimitWindow]>>;
  remove(key: string): MaybePromise<void>;
  clear(): MaybePromise<void>;
}

/** Throws a RangeError naming the bad value. Both adapters (memory service, Redis) check settings with it. */
export function checkRateLimitSettings(s: RateLimitSettings): RateLimitSettings {
  if (!Number.isInteger(s.limit) || s.limit < 1)
    throw new RangeError(`rate limit must be a whole number >= 1, not ${s.limit}`);
  if (!Number.isInteger(s.windowSeconds) || s.windowSeconds < 1) {
    throw new RangeError(`rate limit window must be a whole number of seconds >= 1, not ${s.windowSeconds}`);
  }
  return { limit: s.limit, windowSeconds: s.windowSeconds };
}
