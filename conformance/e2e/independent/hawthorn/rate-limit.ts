// Bucket4j-style token buckets: one bucket per access (client), tenant and environment, capacity N,
// refilled greedily (continuously) at N per window. A call takes one token; an empty bucket answers
// 429 with the seconds until the next token.
import { ApiError, type RateInfo } from './util.ts';

export interface RateConfig {
  capacity: number;
  windowMs: number;
}

interface Bucket {
  tokens: number;
  updated: number;
}

export class RateLimiter {
  private buckets = new Map<string, Bucket>();
  private cfg: RateConfig;

  constructor(cfg: RateConfig) {
    this.cfg = cfg;
  }

  /** Consumes one token; returns the headers' numbers, or throws 429 carrying them. */
  consume(key: string): RateInfo {
    const { capacity, windowMs } = this.cfg;
    const now = Date.now();
    const b = this.buckets.get(key) ?? { tokens: capacity, updated: now };
    b.tokens = Math.min(capacity, b.tokens + ((now - b.updated) * capacity) / windowMs);
    b.updated = now;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { limit: capacity, remaining: Math.floor(b.tokens) };
    }
    const waitMs = ((1 - b.tokens) * windowMs) / capacity;
    const info: RateInfo = { limit: capacity, remaining: 0, retryAfter: Math.max(1, Math.ceil(waitMs / 1000)) };
    throw Object.assign(
      new ApiError(
        429,
        'rate_limited',
        'Too many calls in a short time',
        `bucket of ${capacity} calls per ${windowMs / 1000} s is empty`,
        'Respect Retry-After and retry with growing intervals',
      ),
      { rate: info },
    );
  }
}
