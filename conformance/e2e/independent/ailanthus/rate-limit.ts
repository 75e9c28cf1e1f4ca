// A Resilience4j-style RateLimiter: a fixed number of permits per refresh period, one limiter per client,
// tenant and environment (this deployment is one environment: sandbox). Anonymous calls share a limiter
// per remote address, so every answer of the interface carries the three headers.
import { ApiError, type Ctx } from './http.ts';
import type { Store } from './state.ts';

interface Window {
  start: number;
  used: number;
}

const limiters = new WeakMap<Store, Map<string, Window>>();

export function acquirePermission(store: Store, ctx: Ctx): void {
  let m = limiters.get(store);
  if (!m) {
    m = new Map();
    limiters.set(store, m);
  }
  const { rateLimit, windowMs } = store.options;
  const key = ctx.clientId ? `${ctx.clientId}|${ctx.tenant ?? ''}|sandbox` : `anon|${ctx.req.socket.remoteAddress}`;
  const now = Date.now();
  let w = m.get(key);
  // Windows are aligned to the limiter's own cycle, as Resilience4j's AtomicRateLimiter refreshes them.
  if (!w || now - w.start >= windowMs) {
    w = { start: now - ((now - (w?.start ?? now)) % windowMs), used: 0 };
    m.set(key, w);
  }
  const retryAfter = String(Math.max(1, Math.ceil((w.start + windowMs - now) / 1000)));
  if (w.used >= rateLimit) {
    ctx.headers['x-ratelimit-limit'] = String(rateLimit);
    ctx.headers['x-ratelimit-remaining'] = '0';
    throw new ApiError(429, 'rate_limited', 'Too many calls in this window', undefined, { 'retry-after': retryAfter });
  }
  w.used += 1;
  ctx.headers['x-ratelimit-limit'] = String(rateLimit);
  ctx.headers['x-ratelimit-remaining'] = String(rateLimit - w.used);
}
