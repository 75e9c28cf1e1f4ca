import type { Target } from '../harness.ts';
import { type Auth, fault, publish, type Reply, readStream } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';

/**
 * Round 35 writes clients of stacks no earlier round used: Redux Toolkit Query's `retry`, SmallRye
 * Mutiny's `withBackOff`, RxJava's `retryWhen`, Dart Chopper interceptors, C++ Boost.Beast and Poco loops,
 * Kotlin Fuel, SWR and Elm. Each schedule is
 * written from the documentation (none is installed), with a seeded draw where it draws; it gets the retry
 * number (0 for the first retry) and returns ms.
 */

/**
 * RTK Query `retry(baseQuery, { maxRetries })` and its `defaultBackoff(attempt, maxRetries)`: attempt counts
 * from 1, `~~((Math.random() + 0.4) * (300 << min(attempt, maxRetries)))`: 240-840 ms, 480-1680 ms, ...
 */
export const rtkBackoff =
  (random: () => number, maxRetries = 5) =>
  (n: number) =>
    Math.floor((random() + 0.4) * (300 << Math.min(n + 1, maxRetries)));
/** RTK Query's default `maxRetries`: 5, six attempts. */
export const RTK_DEFAULT_MAX_RETRIES = 5;

/**
 * Mutiny `onFailure().retry().withBackOff(initial, max).withJitter(j)` (default jitter 0.5): the delay
 * `initial * 2^n` capped at max, then drawn in `[max(initial, d - j*d), min(max, d + j*d)]`.
 */
export const mutinyBackoff = (o: { initialMs: number; maxMs: number; jitter?: number; random: () => number }) =>
  function wait(n: number): number {
    const d = Math.min(o.initialMs * 2 ** n, o.maxMs);
    const offset = (o.jitter ?? 0.5) * d;
    const low = Math.max(o.initialMs, d - offset);
    const high = Math.min(o.maxMs, d + offset);
    return Math.round(low + o.random() * (high - low));
  };

/** The guidance written as an RxJava `retryWhen` with `Flowable.timer((500L << n) + rnd.nextInt(250))`. */
export const rxTimer = (random: () => number) => (n: number) => (500 << n) + Math.floor(random() * 250);

/**
 * A Poco `HTTPClientSession` loop whose `Retry-After` branch sits under `if (attempt == 0)`: the first 429's
 * header is slept, later ones fall to its own `250 << n` ms plus a draw of up to 100 ms.
 */
export const pocoFirstOnly = (random: () => number) => (n: number, r: Reply) =>
  n === 0 && r.retryAfterMs > 0 ? r.retryAfterMs : (250 << n) + Math.floor(random() * 100);

/** The same loop with the branch on every 429: the header when there is one, its own schedule otherwise. */
export const pocoEvery = (random: () => number) => (n: number, r: Reply) =>
  r.retryAfterMs > 0 ? r.retryAfterMs : (250 << n) + Math.floor(random() * 100);

/**
 * A per-tenant token cache that renews once `remaining < ttl * skew` (`skew` meant as the share of the
 * lifetime to keep in hand, 0.1 in the docs): a cache of its own per tenant, on the sandbox clock.
 */
export function tenantTokens(t: Target, issue: (tenant: string) => Auth, ttlS: number, skew: number) {
  const cache = new Map<string, { a: Auth; until: number }>();
  return (tenant: string): Auth => {
    const now = t.sandbox.state.clock.now();
    const hit = cache.get(tenant);
    if (hit && hit.until - now >= ttlS * 1_000 * skew) return hit.a;
    const a = issue(tenant);
    cache.set(tenant, { a, until: now + ttlS * 1_000 });
    return a;
  };
}

/**
 * Pod A reads the stream until it is cut after seven, then (unless `aLives` is false) goes on reading
 * the catalogue with its own token (1 s after the cut and three times after B's stream); pod B (its own token, no stream before) opens the stream 2 s after
 * the cut with `cursor(ids)`. With `aLives`, A's token keeps being used after B took over.
 */
export async function handOver(t: Target, a: Auth, b: Auth, cursor: (ids: number[]) => number, aLives: boolean) {
  fault(t, { kind: 'stream_cut', afterMessages: 7, count: 1 });
  const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 7) });
  if (ids.length !== 7) throw new Error(`read ${ids.join(',')}`);
  await sleeper(t)(1_000);
  if (aLives) ok('pod A read', await get(t, a, '/connectors'));
  await sleeper(t)(1_000);
  await readStream(t, b, { cursor: cursor(ids), idleMs: 400 });
  for (let i = 0; aLives && i < 3; i++) {
    ok('pod A read', await get(t, a, '/connectors'));
    await sleeper(t)(10_000);
  }
}
