// Vert.x Web style rate limiting: a fixed window per (client, tenant) in a shared local map, with
// X-RateLimit-Limit / X-RateLimit-Remaining on every counted answer and Retry-After on a 429.
import { HttpException } from './util.ts';

interface Window {
  start: number;
  count: number;
}

export class RateLimiter {
  private readonly map = new Map<string, Window>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly sweeper: NodeJS.Timeout;
  constructor(limit: number, windowMs: number) {
    this.limit = limit;
    this.windowMs = windowMs;
    // vertx.setPeriodic: drop the windows that ended, so the shared map does not grow with every tenant seen.
    this.sweeper = setInterval(() => this.sweep(), Math.max(windowMs, 1000));
    this.sweeper.unref();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, w] of this.map) if (now - w.start >= this.windowMs) this.map.delete(key);
  }

  close(): void {
    clearInterval(this.sweeper);
    this.map.clear();
  }

  /** Counts one call; writes the headers into `headers` and throws rate_limited when the window is used up. */
  consume(clientId: string, tenant: string, headers: Record<string, string>): void {
    const key = `${clientId}\u0000${tenant}`;
    const now = Date.now();
    let w = this.map.get(key);
    if (!w || now - w.start >= this.windowMs) {
      w = { start: now, count: 0 };
      this.map.set(key, w);
    }
    const resetSeconds = Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
    headers['X-RateLimit-Limit'] = String(this.limit);
    if (w.count >= this.limit) {
      headers['X-RateLimit-Remaining'] = '0';
      headers['X-RateLimit-Reset'] = String(resetSeconds);
      headers['Retry-After'] = String(resetSeconds);
      throw new HttpException(
        429,
        'rate_limited',
        'Too Many Requests',
        `Rate limit of ${this.limit} calls per ${this.windowMs / 1000} s exceeded`,
        `Retry after ${resetSeconds} s with growing intervals`,
      );
    }
    w.count += 1;
    headers['X-RateLimit-Remaining'] = String(this.limit - w.count);
    headers['X-RateLimit-Reset'] = String(resetSeconds);
  }
}
