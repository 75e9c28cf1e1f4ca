// Upstash-style Ratelimit.slidingWindow(limit, window): the previous fixed window's count, weighted by how much
// of it still overlaps the sliding window, plus the current window's count; keyed by token+tenant.
export interface LimitResult {
  success: boolean;
  limit: number;
  remaining: number;
  /** Unix milliseconds when the current fixed window ends. */
  reset: number;
  /** Seconds until a call would be allowed again (only when refused). */
  retryAfter: number;
}

export class SlidingWindowRatelimit {
  private readonly windows = new Map<string, Map<number, number>>();
  readonly limit: number;
  readonly windowMs: number;

  constructor(limit: number, windowMs: number) {
    this.limit = limit;
    this.windowMs = windowMs;
  }

  private weighted(counts: Map<number, number>, now: number): number {
    const current = Math.floor(now / this.windowMs);
    const previous = counts.get(current - 1) ?? 0;
    const overlap = 1 - (now % this.windowMs) / this.windowMs;
    return Math.ceil(previous * overlap) + (counts.get(current) ?? 0);
  }

  limitFor(identifier: string, now = Date.now()): LimitResult {
    let counts = this.windows.get(identifier);
    if (!counts) {
      counts = new Map();
      this.windows.set(identifier, counts);
    }
    const current = Math.floor(now / this.windowMs);
    for (const k of counts.keys()) if (k < current - 1) counts.delete(k);
    const reset = (current + 1) * this.windowMs;
    const used = this.weighted(counts, now);
    if (used >= this.limit) {
      return { success: false, limit: this.limit, remaining: 0, reset, retryAfter: this.retryAfter(counts, now) };
    }
    counts.set(current, (counts.get(current) ?? 0) + 1);
    return { success: true, limit: this.limit, remaining: Math.max(0, this.limit - used - 1), reset, retryAfter: 0 };
  }

  /** The first whole second at which the weighted count drops below the limit. */
  private retryAfter(counts: Map<number, number>, now: number): number {
    for (let s = 1; s <= Math.ceil((2 * this.windowMs) / 1000) + 1; s++) {
      if (this.weighted(counts, now + s * 1000) < this.limit) return s;
    }
    return Math.ceil((2 * this.windowMs) / 1000);
  }
}
