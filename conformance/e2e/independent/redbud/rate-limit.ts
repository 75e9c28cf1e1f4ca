// A port of the governor crate's GCRA (generic cell rate algorithm): a burst of `limit` cells that
// replenishes one cell every windowMs/limit. Unlike a fixed window, X-RateLimit-Remaining is the burst
// capacity left right now, so it grows back between calls (as governor's `remaining_burst_capacity()`).
import { ApiError, type Ctx } from './http.ts';
import type { Store } from './state.ts';

export class Gcra {
  private readonly tat = new Map<string, number>();
  private readonly store: Store;
  constructor(store: Store) {
    this.store = store;
  }

  /** Admits or refuses one call of `key`, setting the three headers on the answer either way. */
  check(ctx: Ctx, key: string): void {
    const { rateLimit: limit, windowMs } = this.store.options;
    const interval = windowMs / limit;
    const t = Date.now();
    const tat = Math.max(this.tat.get(key) ?? t, t);
    const allowAt = tat + interval - windowMs;
    ctx.headers['x-ratelimit-limit'] = String(limit);
    if (t < allowAt) {
      ctx.headers['x-ratelimit-remaining'] = '0';
      ctx.headers['retry-after'] = String(Math.max(1, Math.ceil((allowAt - t) / 1000)));
      throw new ApiError('rate_limited', 'Too many requests', 'retry after the time the Retry-After header gives');
    }
    const next = tat + interval;
    this.tat.set(key, next);
    ctx.headers['x-ratelimit-remaining'] = String(Math.max(0, Math.floor((windowMs - (next - t)) / interval)));
  }
}

/** The key governor is configured with: per access, tenant and environment (anonymous callers by address). */
export function rateKey(ctx: Ctx, clientId: string | undefined, tenant: string | undefined): string {
  if (!clientId) return `addr:${ctx.req.socket.remoteAddress ?? '?'}`;
  return `${clientId}|${tenant ?? '-'}|sandbox`;
}
