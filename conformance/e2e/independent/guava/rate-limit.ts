// A fixed window per client, tenant and environment (the interface's "per access, per tenant and per
// environment"), counted after authentication so the window belongs to a known access; the headers go on
// every counted answer, Retry-After only on the 429 (Mojolicious::Plugin::RateLimit's habit).
import { ApiError, type Ctx } from './http.ts';
import type { Store } from './state.ts';

export function countCall(store: Store, ctx: Ctx): void {
  const { rateLimit, windowMs } = store.options;
  const key = `${ctx.clientId}|${ctx.tenant}|sandbox`;
  const now = Date.now();
  let window = store.windows.get(key);
  if (!window || now - window.start >= windowMs) {
    window = { start: now, count: 0 };
    store.windows.set(key, window);
  }
  window.count += 1;
  const remaining = Math.max(0, rateLimit - window.count);
  const resetSeconds = Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(rateLimit),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': String(Math.ceil((window.start + windowMs) / 1000)),
  };
  if (window.count > rateLimit) {
    throw new ApiError('rate_limited', 'Too many calls in this window.', `Retry in ${resetSeconds} s.`, {
      ...headers,
      'Retry-After': String(resetSeconds),
    });
  }
  for (const [name, value] of Object.entries(headers)) ctx.res.setHeader(name, value);
}
