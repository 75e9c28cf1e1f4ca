// Flask-Limiter with a fixed window: one counter per client, tenant and environment for authenticated
// calls (the key function reads the token's azp and the tenant header), per remote address otherwise.
// Its headers go on every answer, the 429 adds Retry-After, rounded up to whole seconds.
import { ApiError, type Ctx } from './http.ts';

interface Window {
  start: number;
  count: number;
}

export class Limiter {
  private readonly windows = new Map<string, Window>();
  readonly limit: number;
  readonly windowMs: number;
  readonly environment: string;
  constructor(limit: number, windowMs: number, environment: string) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.environment = environment;
  }

  /** Counts one call under `key`, sets the headers on ctx, throws rate_limited past the limit. */
  hit(ctx: Ctx, key: string): void {
    const now = Date.now();
    const scoped = `${key}:${this.environment}`;
    let w = this.windows.get(scoped);
    if (!w || now - w.start >= this.windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(scoped, w);
    }
    w.count += 1;
    const resetMs = w.start + this.windowMs;
    ctx.headers['x-ratelimit-limit'] = String(this.limit);
    ctx.headers['x-ratelimit-remaining'] = String(Math.max(0, this.limit - w.count));
    ctx.headers['x-ratelimit-reset'] = String(Math.ceil(resetMs / 1000));
    if (w.count > this.limit) {
      const wait = Math.max(1, Math.ceil((resetMs - now) / 1000));
      ctx.headers['retry-after'] = String(wait);
      throw new ApiError(
        'rate_limited',
        'Too many requests',
        `${this.limit} per ${this.windowMs / 1000} second(s)`,
        `Retry after ${wait} s with growing intervals.`,
      );
    }
  }
}

/** The limiter key of a call: the client and tenant when the token is readable, else the address. */
export function limiterKey(ctx: Ctx, clientId: string | undefined): string {
  const tenant = ctx.req.headers['x-service-tenant'];
  if (clientId) return `client:${clientId}:tenant:${Array.isArray(tenant) ? tenant[0] : (tenant ?? '-')}`;
  return `addr:${ctx.req.socket.remoteAddress ?? 'unknown'}`;
}
