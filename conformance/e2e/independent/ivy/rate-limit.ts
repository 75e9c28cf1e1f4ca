// API Gateway usage-plan throttling: a token bucket per access, tenant and environment (and per stage:
// the alternate base address is a second stage with its own bucket, unless sharedAltBucket).
import type { Call } from './http-kit.ts';
import { ApiError } from './http-kit.ts';

export interface RateLimitOptions {
  ratePerSecond: number;
  burst: number;
  sharedAltBucket: boolean;
  environment: string;
}

interface Bucket {
  tokens: number;
  at: number;
}

export function createRateLimiter(options: RateLimitOptions) {
  const buckets = new Map<string, Bucket>();

  /** Takes one token for the call or throws 429; the headers go on the answer either way. */
  function take(call: Call, clientId: string, tenant: string): void {
    const stage = options.sharedAltBucket ? 'shared' : call.stage;
    const key = `${clientId}|${tenant}|${options.environment}|${stage}`;
    const now = Date.now();
    const bucket = buckets.get(key) ?? { tokens: options.burst, at: now };
    bucket.tokens = Math.min(options.burst, bucket.tokens + ((now - bucket.at) / 1000) * options.ratePerSecond);
    bucket.at = now;
    buckets.set(key, bucket);
    call.headers['X-RateLimit-Limit'] = String(options.burst);
    if (bucket.tokens < 1) {
      const waitS = Math.max(1, Math.ceil((1 - bucket.tokens) / options.ratePerSecond));
      call.headers['X-RateLimit-Remaining'] = '0';
      call.headers['Retry-After'] = String(waitS);
      throw new ApiError(
        'rate_limited',
        'Too many requests.',
        undefined,
        'Wait for Retry-After seconds, then retry with growing intervals.',
      );
    }
    bucket.tokens -= 1;
    call.headers['X-RateLimit-Remaining'] = String(Math.floor(bucket.tokens));
  }

  return { take };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
