// Kong's rate-limiting plugin (fixed window, policy "local") keyed by consumer, tenant and environment.
// Kong sends its own headers (X-RateLimit-*-Minute, RateLimit-*) beside the contract's X-RateLimit-* ones.
import type { State } from './state.ts';
import { ApiError } from './util.ts';

interface Window {
  start: number;
  used: number;
}

export class RateLimiter {
  state: State;
  windows = new Map<string, Window>();
  constructor(state: State) {
    this.state = state;
  }

  /** Counts one call; returns the headers to send, or throws 429 with them. */
  take(key: string): Record<string, string> {
    const { rateLimit: limit, windowMs } = this.state.opts;
    const now = Date.now();
    const start = now - (now % windowMs);
    let w = this.windows.get(key);
    if (!w || w.start !== start) {
      w = { start, used: 0 };
      this.windows.set(key, w);
    }
    const reset = Math.max(1, Math.ceil((start + windowMs - now) / 1000));
    const over = w.used >= limit;
    if (!over) w.used++;
    const remaining = String(Math.max(0, limit - w.used));
    const headers: Record<string, string> = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': remaining,
      'x-ratelimit-limit-minute': String(limit),
      'x-ratelimit-remaining-minute': remaining,
      'ratelimit-limit': String(limit),
      'ratelimit-remaining': remaining,
      'ratelimit-reset': String(reset),
    };
    if (over) {
      const e = new ApiError(
        429,
        'rate_limited',
        'Too many calls in a short time',
        `limit of ${limit} calls per window reached`,
        'Respect Retry-After and retry with growing intervals',
      );
      e.headers = { ...headers, 'retry-after': String(reset) };
      throw e;
    }
    return headers;
  }
}
