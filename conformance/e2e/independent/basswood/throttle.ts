// rack-attack's throttle: a fixed period window (the period starts on a multiple of its length, as
// Rack::Attack's cache key `epoch / period` does), counted per client and tenant, or per IP for calls
// that carry no valid access. Its own Retry-After: the seconds left in the period, rounded up.
import { type Ctx, Halt } from './http.ts';

export function throttle(ctx: Ctx, key: string): void {
  const { writeLimit } = ctx.store.options;
  // A write is counted by the general throttle and by the writes throttle; its headers report the writes one.
  count(ctx, key, ctx.store.options.rateLimit);
  if (writeLimit > 0 && ctx.req.method !== 'GET' && key.startsWith('client:')) count(ctx, `writes:${key}`, writeLimit);
}

function count(ctx: Ctx, key: string, rateLimit: number): void {
  const { windowMs } = ctx.store.options;
  const now = Date.now();
  const start = Math.floor(now / windowMs) * windowMs;
  let w = ctx.store.windows.get(key);
  if (!w || w.start !== start) {
    w = { start, count: 0 };
    ctx.store.windows.set(key, w);
  }
  w.count += 1;
  const remaining = Math.max(0, rateLimit - w.count);
  ctx.headers['x-ratelimit-limit'] = String(rateLimit);
  ctx.headers['x-ratelimit-remaining'] = String(remaining);
  if (w.count > rateLimit) {
    const retry = Math.max(1, Math.ceil((start + windowMs - now) / 1000));
    ctx.headers['retry-after'] = String(retry);
    throw new Halt(
      429,
      'rate_limited',
      'Too many calls in a short time.',
      `Retry in ${retry} s.`,
      'Respect Retry-After and back off.',
    );
  }
}
