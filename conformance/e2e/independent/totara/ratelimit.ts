// totara: @fastify/rate-limit's fixed window, keyed by the team's per-route keyGenerator (route, client, tenant;
// the deployment is one environment), with its lower-case `x-ratelimit-*` headers and `retry-after` on a 429.
import { HttpError, type Settings } from './types.ts';

interface Bucket {
  count: number;
  resetAt: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  private readonly settings: Settings;

  constructor(settings: Settings) {
    this.settings = settings;
  }

  /** The keyGenerator: `route|client|tenant|environment`, or without the route when configured per client. */
  key(route: string, who: string, environment: string): string {
    return this.settings.rateLimitScope === 'route' ? `${route}|${who}|${environment}` : `*|${who}|${environment}`;
  }

  /** Counts one call; returns the headers for the answer, or throws the 429 with them. */
  hit(key: string): Record<string, string> {
    const t = Date.now();
    let bucket = this.buckets.get(key);
    if (!bucket || bucket.resetAt <= t) {
      bucket = { count: 0, resetAt: t + this.settings.rateLimitWindowMs };
      this.buckets.set(key, bucket);
    }
    bucket.count += 1;
    const max = this.settings.rateLimitMax;
    const resetSeconds = Math.max(1, Math.ceil((bucket.resetAt - t) / 1000));
    const headers: Record<string, string> = {
      'x-ratelimit-limit': String(max),
      'x-ratelimit-remaining': String(Math.max(0, max - bucket.count)),
      'x-ratelimit-reset': String(resetSeconds),
    };
    if (bucket.count > max) {
      throw new HttpError(
        429,
        'rate_limited',
        `Rate limit exceeded, retry in ${resetSeconds} seconds`,
        'FST_ERR_RATE_LIMIT',
        {
          ...headers,
          'retry-after': String(resetSeconds),
        },
      );
    }
    return headers;
  }

  /** Drops windows that ended (called from the server's sweep timer). */
  sweep(): void {
    const t = Date.now();
    for (const [k, b] of this.buckets) if (b.resetAt <= t) this.buckets.delete(k);
  }
}
