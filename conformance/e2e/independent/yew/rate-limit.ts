// A fixed-window limiter per access (client), tenant and environment, like ASP.NET Core's
// FixedWindowRateLimiter partitioned by those three. Retry-After in whole seconds, Retry-After-Ms beside it
// (the Azure convention), so clients of either kind can wait exactly.
export interface RateLimitConfig {
  limit: number;
  windowMs: number;
}

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

export function createRateLimiter(config: RateLimitConfig) {
  const windows = new Map<string, { start: number; count: number }>();

  function take(partition: string): RateDecision {
    const now = Date.now();
    let w = windows.get(partition);
    if (!w || now - w.start >= config.windowMs) {
      w = { start: now, count: 0 };
      windows.set(partition, w);
    }
    const resetMs = Math.max(0, w.start + config.windowMs - now);
    if (w.count >= config.limit) {
      const waitSec = Math.max(1, Math.ceil(resetMs / 1000));
      return {
        allowed: false,
        headers: {
          'x-ratelimit-limit': String(config.limit),
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(Math.ceil((w.start + config.windowMs) / 1000)),
          'retry-after': String(waitSec),
          'retry-after-ms': String(Math.max(1, resetMs)),
        },
      };
    }
    w.count += 1;
    return {
      allowed: true,
      headers: {
        'x-ratelimit-limit': String(config.limit),
        'x-ratelimit-remaining': String(config.limit - w.count),
        'x-ratelimit-reset': String(Math.ceil((w.start + config.windowMs) / 1000)),
      },
    };
  }

  return { take };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
