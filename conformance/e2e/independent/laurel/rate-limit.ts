// Token bucket per client + tenant + environment (the deployment's environment: sandbox). Refill is
// continuous, so X-RateLimit-Remaining may go up between two calls; Retry-After is whole seconds.
import type { RateInfo } from './http-util.ts';

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  capacity: number;
  perMs: number;
  buckets = new Map<string, Bucket>();
  constructor(capacity: number, windowMs: number) {
    this.capacity = capacity;
    // The whole capacity refills over one window.
    this.perMs = capacity / windowMs;
  }

  private bucket(key: string, now: number): Bucket {
    const b = this.buckets.get(key) ?? { tokens: this.capacity, at: now };
    b.tokens = Math.min(this.capacity, b.tokens + (now - b.at) * this.perMs);
    b.at = now;
    this.buckets.set(key, b);
    return b;
  }

  private info(b: Bucket): RateInfo {
    const missing = Math.max(0, 1 - b.tokens);
    return {
      limit: this.capacity,
      remaining: Math.max(0, Math.floor(b.tokens)),
      resetSeconds: Math.max(1, Math.ceil(missing / this.perMs / 1000)),
    };
  }

  /** Takes one token; ok false when the bucket is empty. */
  take(key: string): { ok: boolean; info: RateInfo } {
    const b = this.bucket(key, Date.now());
    if (b.tokens < 1) return { ok: false, info: this.info(b) };
    b.tokens -= 1;
    return { ok: true, info: this.info(b) };
  }

  /** The bucket's state without taking a token (answers refused before counting still show it). */
  peek(key: string | undefined): RateInfo {
    if (!key) return { limit: this.capacity, remaining: this.capacity, resetSeconds: 1 };
    return this.info(this.bucket(key, Date.now()));
  }
}

export function bucketKey(clientId: string, tenant: string): string {
  return `${clientId}|${tenant}|sandbox`;
}
