// Resilience4j's RateLimiter per access (client, tenant): limitForPeriod permits, refreshed all at once
// every limitRefreshPeriod (a fixed cycle, not a sliding window), no waiting for a permit (timeout 0).
export interface RateLimiterConfig {
  limitForPeriod: number;
  limitRefreshPeriodMs: number;
}

export interface Permit {
  granted: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the next refresh, rounded up (at least 1). */
  retryAfter: number;
}

export function createRateLimiterRegistry(config: RateLimiterConfig): (access: string) => Permit {
  const cycles = new Map<string, { cycleStart: number; used: number }>();
  return (access) => {
    const now = Date.now();
    let c = cycles.get(access);
    if (!c || now - c.cycleStart >= config.limitRefreshPeriodMs) {
      // Cycles are aligned to the first call of the access, as the limiter's own clock would be.
      const start = c ? now - ((now - c.cycleStart) % config.limitRefreshPeriodMs) : now;
      c = { cycleStart: start, used: 0 };
      cycles.set(access, c);
    }
    const granted = c.used < config.limitForPeriod;
    if (granted) c.used++;
    const retryAfter = Math.max(1, Math.ceil((c.cycleStart + config.limitRefreshPeriodMs - now) / 1000));
    return { granted, limit: config.limitForPeriod, remaining: config.limitForPeriod - c.used, retryAfter };
  };
}
