// Sliding-log rate limit per access (client), tenant and environment: each counted call's time is kept for
// one window; a call is refused when the log is full. Redis ZSET style, here an array per key.
import { ApiError } from './http-kit.ts';

export interface RateLimiter {
  /** Counts one call; returns the headers to send, or throws 429 rate_limited with Retry-After. */
  take(key: string): Record<string, string>;
}

export function slidingLog(limit: number, windowMs: number): RateLimiter {
  const logs = new Map<string, number[]>();
  return {
    take(key) {
      const now = Date.now();
      const log = (logs.get(key) ?? []).filter((t) => t > now - windowMs);
      logs.set(key, log);
      if (log.length >= limit) {
        const oldest = log[0] ?? now;
        const wait = Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));
        const e = new ApiError(
          429,
          'rate_limited',
          'too many calls in a short time',
          `limit ${limit} per ${windowMs} ms`,
          'respect Retry-After, retry with growing intervals',
        );
        e.headers = { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': '0', 'retry-after': String(wait) };
        throw e;
      }
      log.push(now);
      return { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(limit - log.length) };
    },
  };
}
