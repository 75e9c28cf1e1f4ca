// Fixed-window rate limit per access token, tenant and environment (default 40 calls per 10 s).
import type { Ctx } from './http-kit.ts';
import { HttpError } from './http-kit.ts';

export function createRateLimit(limit: number, windowMs: number) {
  const windows = new Map<string, { start: number; used: number }>();

  function count(ctx: Ctx, bucket: string): void {
    const now = Date.now();
    let w = windows.get(bucket);
    if (!w || now - w.start >= windowMs) {
      w = { start: now, used: 0 };
      windows.set(bucket, w);
    }
    if (windows.size > 10000) for (const [k, v] of windows) if (now - v.start >= windowMs) windows.delete(k);
    const resetSeconds = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
    ctx.headers['x-ratelimit-limit'] = String(limit);
    ctx.headers['x-ratelimit-reset'] = String(resetSeconds);
    if (w.used >= limit) {
      ctx.headers['x-ratelimit-remaining'] = '0';
      ctx.headers['retry-after'] = String(resetSeconds);
      throw new HttpError(
        429,
        'rate_limited',
        'Too many calls in this window.',
        `Wait ${resetSeconds} s, then retry with growing intervals.`,
      );
    }
    w.used += 1;
    ctx.headers['x-ratelimit-remaining'] = String(limit - w.used);
  }

  return { count, limit };
}
export type RateLimit = ReturnType<typeof createRateLimit>;
