import type { Clock } from '../lib/clock.ts';
import { all, andThen, type MaybePromise } from '../state/ports/maybe-promise.ts';
import {
  checkRateLimitSettings,
  RATE_LIMIT_PRESETS,
  type RateLimitDecision,
  type RateLimitPort,
  type RateLimitRepository,
  type RateLimitSettings,
  type RateLimitWindow,
} from '../state/ports/rate-limits.ts';

export * from '../state/ports/rate-limits.ts';

/** Keys with a window kept at most; past it, ended windows are dropped before a new key gets one. */
export const MAX_RATE_LIMIT_KEYS = 10_000;

/**
 * Who a call is counted against: its access (client), tenant and environment. Calls without a token
 * (public routes, the anonymous status stream) have no key and are not counted.
 * @example rateLimitKey(ctx.access) // 'harbour-backend|harbour-kitchens|sandbox'
 */
export function rateLimitKey(
  access: { tenant: string; token: { clientId: string; environment: string } } | undefined,
): string | undefined {
  return access && `${access.token.clientId}|${access.tenant}|${access.token.environment}`;
}

/** Seconds until a window that started at `start` ends (at least 1): what Retry-After says. */
export function resetSecondsOf(start: number, spanMs: number, now: number): number {
  return Math.max(1, Math.ceil((start + spanMs - now) / 1000));
}

/** Whether a call at `now` opens a new window: the first call, or the first after the window ended (or after the clock moved back). */
export function opensWindow(w: RateLimitWindow | undefined, spanMs: number, now: number): boolean {
  return !w || now >= w.start + spanMs || now < w.start;
}

export interface RateLimitServiceDeps {
  repository: RateLimitRepository;
  clock: Clock;
  /** Settings at start (default RATE_LIMIT_PRESETS.default); false = limiting off. */
  initial?: RateLimitSettings | false;
}

/**
 * Fixed-window rate limits on the sandbox clock over their repository: the window arithmetic, the
 * limit check, Retry-After and the bound on kept keys. The settings stay in the process (a shared
 * sandbox replicates their changes). Over the memory repository `hit` is synchronous, so concurrent
 * calls (one JS thread) are counted exactly; over a repository answering promises two concurrent calls
 * may read one window alike (a shared sandbox counts with the Redis adapter, whose script is atomic).
 * @example const limits = createRateLimitService({ repository: createRateLimitStore(), clock }); limits.hit('client|tenant|sandbox');
 */
export function createRateLimitService(deps: RateLimitServiceDeps): RateLimitPort {
  const { repository: repo, clock } = deps;
  const initial = deps.initial ?? RATE_LIMIT_PRESETS.default;
  let current: RateLimitSettings | false = initial === false ? false : checkRateLimitSettings(initial);

  /** Drops the windows that ended (before a new key is kept past the bound). */
  function dropEnded(spanMs: number, now: number): MaybePromise<void> {
    return andThen(repo.entries(), (entries) => {
      const ended: string[] = [];
      for (const [k, w] of entries) if (now >= w.start + spanMs) ended.push(k);
      return andThen(all(ended.map((k) => repo.remove(k))), () => undefined);
    });
  }

  function count(
    key: string,
    w: RateLimitWindow | undefined,
    settings: RateLimitSettings,
    now: number,
  ): MaybePromise<RateLimitDecision> {
    const { limit } = settings;
    const span = settings.windowSeconds * 1000;
    if (opensWindow(w, span, now)) {
      const opened = (): MaybePromise<RateLimitDecision> => {
        const put = repo.put(key, now, 1);
        const decision = { allowed: true, limit, remaining: limit - 1, resetSeconds: resetSecondsOf(now, span, now) };
        return put instanceof Promise ? put.then(() => decision) : decision;
      };
      if (w) return opened();
      const size = repo.size();
      if (size instanceof Promise)
        return size.then((n) => (n >= MAX_RATE_LIMIT_KEYS ? andThen(dropEnded(span, now), opened) : opened()));
      return size >= MAX_RATE_LIMIT_KEYS ? andThen(dropEnded(span, now), opened) : opened();
    }
    const win = w as RateLimitWindow;
    const resetSeconds = resetSecondsOf(win.start, span, now);
    if (win.count >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
    const counted = win.count + 1;
    const put = repo.put(key, win.start, counted);
    const decision = { allowed: true, limit, remaining: limit - counted, resetSeconds };
    return put instanceof Promise ? put.then(() => decision) : decision;
  }

  return {
    settings: () => current,
    configure(settings) {
      current = settings === false ? false : checkRateLimitSettings(settings);
      // New settings start every window afresh.
      return repo.clear();
    },
    hit(key) {
      const settings = current;
      if (settings === false) return undefined;
      const now = clock.now();
      const w = repo.get(key);
      return w instanceof Promise ? w.then((found) => count(key, found, settings, now)) : count(key, w, settings, now);
    },
    clear: () => repo.clear(),
  };
}
