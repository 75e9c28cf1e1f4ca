import type { Clock } from '../lib/clock.ts';

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
  default: { limit: 600, windowSeconds: 60 },
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
 * Fixed-window counters per key on the simulator clock. `hit` is synchronous, so concurrent calls
 * (one JS thread) are counted exactly. `false` switches limiting off.
 * @example const store = createRateLimitStore(clock); store.hit('harbour-backend|harbour-kitchens|sandbox');
 */
export interface RateLimitStore extends RateLimitPort {
  hit(key: string): RateLimitDecision | undefined;
}

/** What the middleware uses: memory answers at once, a shared store (Redis) counts across replicas with a promise. */
export interface RateLimitPort {
  settings(): RateLimitSettings | false;
  /** New settings start every window afresh. */
  configure(settings: RateLimitSettings | false): void;
  /** Counts one call against `key`; undefined when limiting is off. A shared store (Redis) answers with a promise. */
  hit(key: string): RateLimitDecision | Promise<RateLimitDecision> | undefined;
  clear(): void;
}

const MAX_KEYS = 10_000;

/** Throws a RangeError naming the bad value. */
export function checkRateLimitSettings(s: RateLimitSettings): RateLimitSettings {
  if (!Number.isInteger(s.limit) || s.limit < 1)
    throw new RangeError(`rate limit must be a whole number >= 1, not ${s.limit}`);
  if (!Number.isInteger(s.windowSeconds) || s.windowSeconds < 1) {
    throw new RangeError(`rate limit window must be a whole number of seconds >= 1, not ${s.windowSeconds}`);
  }
  return { limit: s.limit, windowSeconds: s.windowSeconds };
}

export function createRateLimitStore(
  clock: Clock,
  initial: RateLimitSettings | false = RATE_LIMIT_PRESETS.default,
): RateLimitStore {
  let current: RateLimitSettings | false = initial === false ? false : checkRateLimitSettings(initial);
  const windows = new Map<string, { start: number; count: number }>();
  return {
    settings: () => current,
    configure(settings) {
      current = settings === false ? false : checkRateLimitSettings(settings);
      windows.clear();
    },
    hit(key) {
      if (current === false) return undefined;
      const { limit, windowSeconds } = current;
      const span = windowSeconds * 1000;
      const now = clock.now();
      let win = windows.get(key);
      // A window starts with the first call after the previous one ended (or after the clock was reset).
      if (!win || now >= win.start + span || now < win.start) {
        if (!win && windows.size >= MAX_KEYS) {
          for (const [k, w] of windows) if (now >= w.start + span) windows.delete(k);
        }
        win = { start: now, count: 0 };
        windows.set(key, win);
      }
      const resetSeconds = Math.max(1, Math.ceil((win.start + span - now) / 1000));
      if (win.count >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
      win.count++;
      return { allowed: true, limit, remaining: limit - win.count, resetSeconds };
    },
    clear: () => windows.clear(),
  };
}
