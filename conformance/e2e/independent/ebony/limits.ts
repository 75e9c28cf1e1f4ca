// Rate limits per plan in a fixed window (as an API Connect plan counts them): one counter per access, tenant
// and environment, reset at the window's boundary; answers carry X-RateLimit-Limit/Remaining, 429 Retry-After.
import type { ServerResponse } from 'node:http';
import { ApiError } from './http.ts';

export class FixedWindow {
  private readonly counters = new Map<string, { start: number; count: number }>();
  readonly limit: number;
  readonly windowMs: number;

  constructor(limit: number, windowMs: number) {
    this.limit = limit;
    this.windowMs = windowMs;
  }

  /** Counts one call under `key`, sets the headers, throws rate_limited beyond the limit. */
  take(key: string, res: ServerResponse): void {
    const now = Date.now();
    const start = Math.floor(now / this.windowMs) * this.windowMs;
    let c = this.counters.get(key);
    if (!c || c.start !== start) {
      c = { start, count: 0 };
      this.counters.set(key, c);
    }
    c.count += 1;
    const resetSec = Math.max(1, Math.ceil((start + this.windowMs - now) / 1000));
    res.setHeader('X-RateLimit-Limit', String(this.limit));
    res.setHeader('X-RateLimit-Remaining', String(Math.max(0, this.limit - c.count)));
    res.setHeader('X-RateLimit-Reset', String(resetSec));
    if (c.count > this.limit) {
      res.setHeader('Retry-After', String(resetSec));
      throw new ApiError(
        'rate_limited',
        'Too many calls in a short time.',
        `plan limit ${this.limit} calls per ${this.windowMs / 1000} s`,
        `Retry after ${resetSec} s with growing intervals.`,
      );
    }
  }
}
