// A fixed window per client, tenant and environment (elysia-rate-limit's default counting); callers
// not yet known (public routes, refused tokens) share a window per remote address.
import { type Ctx, HttpError } from './http.ts';
import type { Store } from './state.ts';

interface Bucket {
  start: number;
  used: number;
}

export class RateLimiter {
  private buckets = new Map<string, Bucket>();
  private store: Store;
  constructor(store: Store) {
    this.store = store;
  }

  /** Counts the call, sets the headers every answer carries, and refuses past the limit. */
  take(ctx: Ctx, key: string) {
    const { rateLimit, windowMs } = this.store.options;
    const now = Date.now();
    let b = this.buckets.get(key);
    if (!b || now - b.start >= windowMs) {
      b = { start: now, used: 0 };
      this.buckets.set(key, b);
    }
    b.used++;
    ctx.headers['x-ratelimit-limit'] = String(rateLimit);
    ctx.headers['x-ratelimit-remaining'] = String(Math.max(0, rateLimit - b.used));
    if (b.used > rateLimit) {
      // Whole seconds until the window resets, never 0: a client told 0 would retry at once.
      const wait = Math.max(1, Math.ceil((b.start + windowMs - now) / 1000));
      ctx.headers['retry-after'] = String(wait);
      throw new HttpError(
        429,
        'rate_limited',
        'Too many calls in this window',
        `Retry after ${wait} s`,
        'Wait for Retry-After, then back off',
      );
    }
  }

  /** The access's window: client, tenant and the environment this deployment is. */
  forAccess(ctx: Ctx, clientId: string, tenant: string | undefined) {
    this.take(ctx, `${clientId}|${tenant ?? '-'}|sandbox`);
  }

  forAnonymous(ctx: Ctx) {
    this.take(ctx, `anon|${ctx.req.socket.remoteAddress ?? '?'}`);
  }
}
