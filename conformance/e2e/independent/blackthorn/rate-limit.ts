// The rate-limit interceptor: a fixed window per access and tenant (the contract configures limits per
// access, per tenant and per environment; this deployment is one environment). Every counted answer carries
// the X-RateLimit headers; a refusal carries Retry-After in whole seconds.
import { ApiError, type Ctx } from './http.ts';
import type { Store } from './state.ts';

const windows = new WeakMap<Store, Map<string, { start: number; count: number }>>();

export function rateLimit(store: Store, ctx: Ctx) {
  let map = windows.get(store);
  if (!map) {
    map = new Map();
    windows.set(store, map);
  }
  const key = `${ctx.clientId}|${ctx.tenant}`;
  const now = Date.now();
  const { rateLimit: limit, windowMs } = store.opts;
  let w = map.get(key);
  if (!w || now - w.start >= windowMs) {
    w = { start: now, count: 0 };
    map.set(key, w);
  }
  w.count += 1;
  ctx.headers['x-ratelimit-limit'] = String(limit);
  ctx.headers['x-ratelimit-remaining'] = String(Math.max(0, limit - w.count));
  if (w.count > limit) {
    // Rounded up so a client waiting the stated seconds always lands in a fresh window.
    const wait = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
    ctx.headers['retry-after'] = String(wait);
    throw new ApiError(
      429,
      'rate_limited',
      'Too many calls in this window',
      `retry after ${wait} s`,
      'Respect Retry-After',
    );
  }
}
