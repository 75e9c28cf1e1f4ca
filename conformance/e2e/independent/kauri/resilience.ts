// Resilience4j's RateLimiter per (client, tenant, environment): limitForPeriod permits every limitRefreshPeriod,
// the period cycles aligned to the limiter's creation, as AtomicRateLimiter's cycles are.
export interface RateLimiterConfig {
  limitForPeriod: number;
  limitRefreshPeriodMs: number;
}

interface Cycle {
  start: number;
  used: number;
}

export interface Permit {
  permitted: boolean;
  limit: number;
  remaining: number;
  retryAfterSeconds: number;
}

export class RateLimiterRegistry {
  private readonly limiters = new Map<string, Cycle>();
  private readonly config: RateLimiterConfig;
  constructor(config: RateLimiterConfig) {
    if (!(config.limitForPeriod >= 1) || !(config.limitRefreshPeriodMs >= 1)) {
      throw new Error('RateLimiterConfig: limitForPeriod and limitRefreshPeriod must be positive');
    }
    this.config = config;
  }

  /** Resilience4j's RateLimiter.Metrics of one limiter: available permissions in the current cycle. */
  metrics(
    clientId: string,
    tenant: string,
    environment: string,
  ): { availablePermissions: number; limitForPeriod: number } {
    const cycle = this.limiters.get(`${clientId}|${tenant}|${environment}`);
    const fresh = !cycle || Date.now() - cycle.start >= this.config.limitRefreshPeriodMs;
    return {
      availablePermissions: fresh ? this.config.limitForPeriod : this.config.limitForPeriod - cycle.used,
      limitForPeriod: this.config.limitForPeriod,
    };
  }

  acquire(clientId: string, tenant: string, environment: string): Permit {
    const name = `${clientId}|${tenant}|${environment}`;
    const now = Date.now();
    const period = this.config.limitRefreshPeriodMs;
    let cycle = this.limiters.get(name);
    if (!cycle) {
      cycle = { start: now, used: 0 };
      this.limiters.set(name, cycle);
    }
    if (now - cycle.start >= period) {
      cycle.start += Math.floor((now - cycle.start) / period) * period;
      cycle.used = 0;
    }
    const limit = this.config.limitForPeriod;
    const retryAfterSeconds = Math.max(1, Math.ceil((cycle.start + period - now) / 1000));
    if (cycle.used >= limit) return { permitted: false, limit, remaining: 0, retryAfterSeconds };
    cycle.used += 1;
    return { permitted: true, limit, remaining: limit - cycle.used, retryAfterSeconds };
  }
}
