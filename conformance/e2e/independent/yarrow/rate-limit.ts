// Symfony RateLimiter "fixed_window" per access, tenant and environment (yarrow is the sandbox). Public
// reads are counted per client address, since they carry no access.
import { ApiError, type Ctx } from './http-util.ts';
import type { ResolvedOptions } from './options.ts';

interface Window {
  start: number;
  count: number;
}

export function createLimiter(opts: ResolvedOptions) {
  const windows = new Map<string, Window>();
  return {
    /** Counts the call, sets the headers on ctx, throws rate_limited past the limit. */
    hit(ctx: Ctx, key: string): void {
      const now = Date.now();
      let w = windows.get(key);
      if (!w || now - w.start >= opts.windowMs) {
        w = { start: now, count: 0 };
        windows.set(key, w);
      }
      w.count += 1;
      const remaining = Math.max(0, opts.rateLimit - w.count);
      ctx.rateHeaders = { 'x-ratelimit-limit': String(opts.rateLimit), 'x-ratelimit-remaining': String(remaining) };
      if (w.count > opts.rateLimit) {
        const wait = Math.max(1, Math.ceil((w.start + opts.windowMs - now) / 1000));
        throw new ApiError(
          'rate_limited',
          `The limit of ${opts.rateLimit} calls per ${opts.windowMs / 1000} s is used up.`,
          `Retry after ${wait} s, with growing intervals.`,
          { 'retry-after': String(wait) },
        );
      }
    },
  };
}
export type Limiter = ReturnType<typeof createLimiter>;
