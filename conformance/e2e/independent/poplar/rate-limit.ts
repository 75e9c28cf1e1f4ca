// Quota-style limits (ESPv2 quota metrics): N calls per window (a minute in production, shortened by option)
// per client, tenant and environment (poplar is one sandbox environment). Fixed windows aligned to their start.
import { ApiError, type Ctx } from './http-util.ts';

export interface Quota {
  limit: number;
  windowMs: number;
  buckets: Map<string, { start: number; count: number }>;
}

export function newQuota(limit: number, windowMs: number): Quota {
  return { limit, windowMs, buckets: new Map() };
}

/** Counts the call, sets the headers on ctx and throws 429 when the window is used up. */
export function charge(q: Quota, ctx: Ctx, key: string): void {
  const now = Date.now();
  let b = q.buckets.get(key);
  if (!b || now - b.start >= q.windowMs) {
    b = { start: now, count: 0 };
    q.buckets.set(key, b);
  }
  b.count++;
  const resetSec = Math.max(1, Math.ceil((b.start + q.windowMs - now) / 1000));
  ctx.headers['x-ratelimit-limit'] = String(q.limit);
  ctx.headers['x-ratelimit-remaining'] = String(Math.max(0, q.limit - b.count));
  ctx.headers['x-ratelimit-reset'] = String(resetSec);
  if (b.count > q.limit) {
    ctx.headers['retry-after'] = String(resetSec);
    throw new ApiError(
      'rate_limited',
      'Quota exceeded for quota metric "api-calls" per window.',
      `limit ${q.limit} per ${q.windowMs / 1000} s`,
      `Retry after ${resetSec} s with growing intervals.`,
    );
  }
}
