// Sliding-window rate limit per client and tenant (ASP.NET Core's SlidingWindowRateLimiter, one segment per call).
import { ApiError, type Ctx } from './http-kit.ts';
import type { Store } from './state.ts';

const windows = new WeakMap<Store, Map<string, number[]>>();

/**
 * Counts the call and sets X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (seconds until the
 * oldest counted call leaves the window, so one more call fits). Exceeded: 429 with Retry-After (whole seconds).
 */
export function countCall(store: Store, ctx: Ctx, key: string): void {
  let all = windows.get(store);
  if (!all) {
    all = new Map();
    windows.set(store, all);
  }
  const now = Date.now();
  const { rateLimit: limit, windowMs } = store.options;
  const calls = (all.get(key) ?? []).filter((t) => t > now - windowMs);
  all.set(key, calls);
  const resetSec = (at: number) => Math.max(1, Math.ceil((at + windowMs - now) / 1000));
  ctx.headers['X-RateLimit-Limit'] = String(limit);
  if (calls.length >= limit) {
    const wait = resetSec(calls[0] ?? now);
    ctx.headers['X-RateLimit-Remaining'] = '0';
    ctx.headers['X-RateLimit-Reset'] = String(wait);
    ctx.headers['Retry-After'] = String(wait);
    throw new ApiError(
      'rate_limited',
      'Too many calls in a short time.',
      `At most ${limit} calls per ${windowMs / 1000} s.`,
      `Retry after ${wait} s, with growing intervals.`,
    );
  }
  calls.push(now);
  ctx.headers['X-RateLimit-Remaining'] = String(limit - calls.length);
  ctx.headers['X-RateLimit-Reset'] = String(resetSec(calls[0] ?? now));
}
