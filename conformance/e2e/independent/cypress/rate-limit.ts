// Rack::Attack's throttle: a fixed window (the counter key carries now / period), per access and tenant.
// Rack::Attack answers a throttled call with its own text; cypress's throttled_responder sends the
// interface's envelope and headers instead.
import type { State } from './state.ts';

export interface Throttle {
  limit: number;
  remaining: number;
  /** Seconds until the window ends, when the call is over the limit. */
  retryAfter?: number;
}

export function throttle(state: State, discriminator: string, now = Date.now()): Throttle {
  const { rateLimit, windowMs } = state.options;
  const period = Math.floor(now / windowMs);
  const key = `${discriminator}:${period}`;
  const count = (state.throttle.get(key) ?? 0) + 1;
  state.throttle.set(key, count);
  if (state.throttle.size > 5000) {
    for (const k of state.throttle.keys()) if (!k.endsWith(`:${period}`)) state.throttle.delete(k);
  }
  const remaining = Math.max(0, rateLimit - count);
  if (count <= rateLimit) return { limit: rateLimit, remaining };
  const retryAfter = Math.max(1, Math.ceil(((period + 1) * windowMs - now) / 1000));
  return { limit: rateLimit, remaining: 0, retryAfter };
}
