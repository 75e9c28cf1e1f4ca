// Fixed-window rate limit per access (client), tenant and environment: 600 calls per 20 s window.
import { ApiError } from './http-util.ts';

export const RATE_LIMIT = 600;
export const RATE_WINDOW_MS = 20_000;

type Window = { startedAt: number; used: number };

export function createRateLimiter(limit = RATE_LIMIT, windowMs = RATE_WINDOW_MS) {
  const windows = new Map<string, Window>();
  return {
    /** Counts one call; returns the headers to send, or throws 429 with them. */
    take(clientId: string, tenant: string, environment: string): Record<string, string> {
      const key = `${clientId}|${tenant}|${environment}`;
      const now = Date.now();
      let w = windows.get(key);
      if (w === undefined || now - w.startedAt >= windowMs) {
        w = { startedAt: now, used: 0 };
        windows.set(key, w);
      }
      const resetS = Math.max(1, Math.ceil((w.startedAt + windowMs - now) / 1000));
      if (w.used >= limit) {
        throw new ApiError('rate_limited', 'too many calls in the current window', {
          hint: 'wait for Retry-After seconds, then retry with growing intervals',
          headers: {
            'X-RateLimit-Limit': String(limit),
            'X-RateLimit-Remaining': '0',
            'X-RateLimit-Reset': String(resetS),
            'Retry-After': String(resetS),
          },
        });
      }
      w.used += 1;
      return {
        'X-RateLimit-Limit': String(limit),
        'X-RateLimit-Remaining': String(limit - w.used),
        'X-RateLimit-Reset': String(resetS),
      };
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
