// Fixed windows, the way Cloudflare's rate-limiting binding counts ({ key, limit, period }): a counter per key
// and window start. Keyed per access (client), tenant and environment, as the interface says. Both header
// families are sent: the contract's X-RateLimit-* and the IETF draft's RateLimit-Policy / RateLimit.
import type { ServerResponse } from 'node:http';

export interface RateLimitOptions {
  limit: number;
  windowMs: number;
  /** The environment of this deployment, part of every key. */
  environment: string;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends, at least 1. */
  resetSeconds: number;
}

export class FixedWindowLimiter {
  opts: RateLimitOptions;
  counters = new Map<string, { windowStart: number; count: number }>();
  constructor(opts: RateLimitOptions) {
    this.opts = opts;
  }

  hit(access: string, tenant: string): RateDecision {
    const now = Date.now();
    const windowStart = now - (now % this.opts.windowMs);
    const key = `${access}|${tenant}|${this.opts.environment}`;
    let c = this.counters.get(key);
    if (c === undefined || c.windowStart !== windowStart) {
      c = { windowStart, count: 0 };
      this.counters.set(key, c);
      if (this.counters.size > 10_000) this.prune(windowStart);
    }
    const resetSeconds = Math.max(1, Math.ceil((windowStart + this.opts.windowMs - now) / 1000));
    if (c.count >= this.opts.limit) return { allowed: false, limit: this.opts.limit, remaining: 0, resetSeconds };
    c.count += 1;
    return { allowed: true, limit: this.opts.limit, remaining: this.opts.limit - c.count, resetSeconds };
  }

  prune(current: number): void {
    for (const [k, v] of this.counters) if (v.windowStart !== current) this.counters.delete(k);
  }

  /** Writes both header families; Retry-After only on a refusal. */
  apply(res: ServerResponse, d: RateDecision): void {
    const windowSeconds = Math.max(1, Math.round(this.opts.windowMs / 1000));
    res.setHeader('X-RateLimit-Limit', String(d.limit));
    res.setHeader('X-RateLimit-Remaining', String(d.remaining));
    res.setHeader('X-RateLimit-Reset', String(d.resetSeconds));
    res.setHeader('RateLimit-Policy', `"fixed";q=${d.limit};w=${windowSeconds}`);
    res.setHeader('RateLimit', `"fixed";r=${d.remaining};t=${d.resetSeconds}`);
    if (!d.allowed) res.setHeader('Retry-After', String(d.resetSeconds));
  }
}
