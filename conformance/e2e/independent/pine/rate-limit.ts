// Fixed-window rate limit (Hammer's ETS backend style), counted in the endpoint before the body is parsed,
// so every answer of an authenticated route carries the headers. Bucket: access + tenant + environment
// when the token is valid; calls without a valid token share a bucket per remote address.

import { accessOf, tenantHeader } from './auth.ts';
import type { Ctx } from './http-kit.ts';
import { halt } from './http-kit.ts';
import type { PineState } from './state.ts';

/** The environment this deployment is (a sandbox; production would be a separate Fly app). */
export const DEPLOYMENT_ENVIRONMENT = 'sandbox';

interface Window {
  start: number;
  count: number;
}

export class RateLimiter {
  windows = new Map<string, Window>();
  limit: number;
  windowMs: number;

  constructor(limit: number, windowMs: number) {
    this.limit = limit;
    this.windowMs = windowMs;
  }

  /** Counts the call; sets X-RateLimit-* on the context; halts with 429 past the limit. */
  hit(ctx: Ctx, state: PineState): void {
    const access = accessOf(ctx.req, state);
    const bucket =
      access === undefined
        ? `anon|${ctx.req.socket.remoteAddress ?? '?'}`
        : `${access}|${tenantHeader(ctx.req) ?? '-'}|${DEPLOYMENT_ENVIRONMENT}`;
    const now = Date.now();
    const start = now - (now % this.windowMs);
    let w = this.windows.get(bucket);
    if (w === undefined || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(bucket, w);
      if (this.windows.size > 10_000) this.sweep(start);
    }
    w.count += 1;
    const resetS = Math.max(1, Math.ceil((start + this.windowMs - now) / 1000));
    ctx.headers['x-ratelimit-limit'] = String(this.limit);
    ctx.headers['x-ratelimit-remaining'] = String(Math.max(0, this.limit - w.count));
    ctx.headers['x-ratelimit-reset'] = String(resetS);
    if (w.count > this.limit) {
      ctx.headers['retry-after'] = String(resetS);
      halt(
        'rate_limited',
        'Too many calls in this window',
        `limit: ${this.limit} calls per ${this.windowMs / 1000} s`,
        `Retry after ${resetS} s.`,
      );
    }
  }

  sweep(current: number): void {
    for (const [k, w] of this.windows) if (w.start !== current) this.windows.delete(k);
  }
}
