// Sliding-window rate limit per access token (the contract leaves values and window open). Each token keeps
// the times of its counted calls within the window; a call beyond the limit is refused with 429 and waits
// until the oldest counted call leaves the window.

export interface RateLimitOptions {
  limit: number;
  windowMs: number;
}

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

export class SlidingWindow {
  limit: number;
  windowMs: number;
  calls = new Map<string, number[]>();

  constructor(options: RateLimitOptions) {
    this.limit = options.limit;
    this.windowMs = options.windowMs;
  }

  private recent(key: string, now: number): number[] {
    const list = (this.calls.get(key) ?? []).filter((t) => t > now - this.windowMs);
    this.calls.set(key, list);
    return list;
  }

  /** Counts one call of `key` (when allowed) and returns the headers of the answer. */
  take(key: string): RateDecision {
    const now = Date.now();
    const list = this.recent(key, now);
    if (list.length >= this.limit) {
      const waitMs = Math.max(1, (list[0] ?? now) + this.windowMs - now);
      return {
        allowed: false,
        headers: {
          'x-ratelimit-limit': String(this.limit),
          'x-ratelimit-remaining': '0',
          'retry-after': String(Math.ceil(waitMs / 1000)),
          'retry-after-ms': String(waitMs),
        },
      };
    }
    list.push(now);
    return { allowed: true, headers: this.peekHeaders(key, now) };
  }

  /** The headers of an answer that is not counted (no valid token): the state, unchanged. */
  peekHeaders(key: string, now = Date.now()): Record<string, string> {
    const used = this.recent(key, now).length;
    return {
      'x-ratelimit-limit': String(this.limit),
      'x-ratelimit-remaining': String(Math.max(0, this.limit - used)),
    };
  }
}
