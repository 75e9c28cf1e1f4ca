// A token-bucket middleware (as a WAI `Middleware` would hold an `IORef` per key): each access, tenant and
// environment has a bucket of `size` tokens refilled continuously. X-RateLimit-Limit is the bucket size,
// Remaining the whole tokens left, and a 429 says in Retry-After when the next token will be there.
import { ApiError, type Ctx } from './http.ts';

interface Bucket {
  tokens: number;
  at: number;
}

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly size: number;
  private readonly refillPerSecond: number;
  constructor(size: number, refillPerSecond: number) {
    this.size = size;
    this.refillPerSecond = refillPerSecond;
  }

  /** Takes one token for `key`, setting the headers on the answer; throws rate_limited when empty. */
  take(ctx: Ctx, key: string): void {
    const now = Date.now();
    const b = this.buckets.get(key) ?? { tokens: this.size, at: now };
    b.tokens = Math.min(this.size, b.tokens + ((now - b.at) / 1000) * this.refillPerSecond);
    b.at = now;
    this.buckets.set(key, b);
    ctx.headers['x-ratelimit-limit'] = String(this.size);
    if (b.tokens < 1) {
      ctx.headers['x-ratelimit-remaining'] = '0';
      // Whole seconds, rounded up, never 0: a client waiting that long finds a token.
      ctx.headers['retry-after'] = String(Math.max(1, Math.ceil((1 - b.tokens) / this.refillPerSecond)));
      throw new ApiError(429, 'rate_limited', 'too many calls, slow down', 'wait for Retry-After seconds');
    }
    b.tokens -= 1;
    ctx.headers['x-ratelimit-remaining'] = String(Math.floor(b.tokens));
  }
}
