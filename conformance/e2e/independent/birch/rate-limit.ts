// Fixed-window rate limiter (rack-attack style) per access, tenant and environment of the deployment.
import { HttpError } from './http-util.ts';

export type RateLimitOptions = { limit: number; windowSeconds: number };

export class RateLimiter {
  opts: RateLimitOptions;
  windows = new Map<string, { start: number; count: number }>();
  constructor(opts: RateLimitOptions) {
    this.opts = opts;
  }

  // Counts one call and returns the headers for it; throws 429 rate_limited when the window is used up.
  hit(key: string): Record<string, string> {
    const now = Date.now();
    const winMs = this.opts.windowSeconds * 1000;
    let w = this.windows.get(key);
    if (!w || now - w.start >= winMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    const resetSeconds = Math.max(1, Math.ceil((w.start + winMs - now) / 1000));
    const headers: Record<string, string> = {
      'x-ratelimit-limit': String(this.opts.limit),
      'x-ratelimit-remaining': String(Math.max(0, this.opts.limit - w.count - 1)),
      'x-ratelimit-reset': String(Math.ceil((w.start + winMs) / 1000)),
    };
    if (w.count >= this.opts.limit) {
      headers['x-ratelimit-remaining'] = '0';
      headers['retry-after'] = String(resetSeconds);
      throw new HttpError(429, 'rate_limited', 'Too many calls in a short time.', {
        detail: `limit ${this.opts.limit} per ${this.opts.windowSeconds} s`,
        hint: `Retry after ${resetSeconds} seconds with growing intervals.`,
        headers,
      });
    }
    w.count += 1;
    return headers;
  }
}
