// The HAProxy stick-table in front of Play: a fixed window per access, tenant and environment, opened by the
// first call and expiring after the window (like `track-sc0` with an `expire` and a `gpc0` counter). Every
// call to an authenticated route is counted, whatever the answer; calls without a valid token are counted
// per client address. Public routes are not tracked.
export interface RateDecision {
  limited: boolean;
  headers: Record<string, string>;
}

interface Entry {
  start: number;
  count: number;
}

export interface RateLimiter {
  hit(key: string): RateDecision;
}

export function createRateLimiter(limit: number, windowMs: number): RateLimiter {
  const table = new Map<string, Entry>();
  let lastSweep = Date.now();

  function sweep(now: number): void {
    if (now - lastSweep < windowMs) return;
    lastSweep = now;
    for (const [k, e] of table) if (now - e.start >= windowMs) table.delete(k);
  }

  return {
    hit(key): RateDecision {
      const now = Date.now();
      sweep(now);
      let entry = table.get(key);
      if (!entry || now - entry.start >= windowMs) {
        entry = { start: now, count: 0 };
        table.set(key, entry);
      }
      const resetSec = Math.max(1, Math.ceil((entry.start + windowMs - now) / 1000));
      if (entry.count >= limit) {
        return {
          limited: true,
          headers: {
            'x-ratelimit-limit': String(limit),
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(resetSec),
            'retry-after': String(resetSec),
          },
        };
      }
      entry.count += 1;
      return {
        limited: false,
        headers: {
          'x-ratelimit-limit': String(limit),
          'x-ratelimit-remaining': String(limit - entry.count),
          'x-ratelimit-reset': String(resetSec),
        },
      };
    },
  };
}
