// SLA-tier rate limiting, fixed window per client, tenant and environment (the Anypoint "Rate Limiting - SLA
// based" policy). Anypoint habit beside the contract's headers: X-RateLimit-Reset in milliseconds.
import { ApiError } from './http.ts';

export interface RateLimiter {
  limit: number;
  windowMs: number;
  windows: Map<string, { start: number; used: number }>;
}

export function createRateLimiter(limit: number, windowMs: number): RateLimiter {
  return { limit, windowMs, windows: new Map() };
}

/** Counts one call; returns the headers to send, or throws 429 with them. */
export function countCall(rl: RateLimiter, key: string, limit = rl.limit): Record<string, string> {
  const now = Date.now();
  let w = rl.windows.get(key);
  if (!w || now - w.start >= rl.windowMs) {
    w = { start: now, used: 0 };
    rl.windows.set(key, w);
  }
  const resetMs = Math.max(0, w.start + rl.windowMs - now);
  if (w.used >= limit) {
    const headers = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(resetMs),
      'retry-after': String(Math.max(1, Math.ceil(resetMs / 1000))),
    };
    throw new ApiError(
      'rate_limited',
      'Too many calls in a short time.',
      'SLA tier quota used up for this window',
      'Respect Retry-After and retry with growing intervals.',
      headers,
    );
  }
  w.used += 1;
  return {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(limit - w.used),
    'x-ratelimit-reset': String(resetMs),
  };
}
