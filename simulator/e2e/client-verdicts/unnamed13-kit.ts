import type { Target } from '../harness.ts';
import { type Auth, fault, READS, type Reply } from './unnamed-kit.ts';
import type { Sleep } from './unnamed5-fleet.ts';
import { get, ok } from './unnamed8-kit.ts';
import { loop } from './unnamed11-kit.ts';

/**
 * Round 13 writes clients of stacks no earlier round used: Trigger.dev and Inngest task retries, Restate
 * journal replays, Go singleflight, opossum circuit breakers, async-retry (node-retry), retry-axios,
 * guava-retrying, opnieuw, gax-go, Windmill, Apache Beam's FluentBackoff, MicroProfile Fault Tolerance,
 * controller-runtime's workqueue, ofetch, Apache NiFi's penalty. Each schedule is written from the
 * library's documentation (none is installed), with a seeded draw. A schedule gets the retry number (0 for
 * the first retry) and returns ms.
 */
export type Schedule = (n: number, r: Reply) => number;

/**
 * Trigger.dev `retry: { factor, minTimeoutInMs, maxTimeoutInMs, randomize }`: `min * factor^n`, times a
 * draw in [1, 2) when `randomize` (its default), capped at max.
 */
export const triggerDev =
  (o: { factor: number; minMs: number; maxMs: number; randomize: boolean }, random: () => number) => (n: number) =>
    Math.min(o.maxMs, Math.round(o.minMs * o.factor ** n * (o.randomize ? 1 + random() : 1)));

/** Inngest's step retry backoff, as its docs describe it: about 10 s doubling, plus up to 5 s of jitter. */
export const inngestBackoff = (random: () => number) => (n: number) => 10_000 * 2 ** n + Math.floor(random() * 5_000);

/**
 * node-retry (under async-retry / p-retry's ancestors): `round(random * max(minTimeout, 1) * factor^n)`,
 * `random` in [1, 2) when `randomize`, 1 otherwise (its default: randomize false, factor 2, minTimeout 1 s).
 */
export const nodeRetry =
  (o: { minMs: number; factor: number; randomize: boolean }, random: () => number) => (n: number) =>
    Math.round((o.randomize ? 1 + random() : 1) * o.minMs * o.factor ** n);

/**
 * retry-axios (rax) `backoffType: 'exponential'`: `((2^attempt - 1) / 2) * 1000` ms, attempt from 1
 * (500, 1500, 3500 ms); a Retry-After header, when sent, instead.
 */
export const raxExponential = (n: number, r: Reply) =>
  r.retryAfterMs > 0 ? r.retryAfterMs : ((2 ** (n + 1) - 1) / 2) * 1_000;

/**
 * guava-retrying `WaitStrategies.join(exponentialWait(250, 10, SECONDS), randomWait(250, MILLISECONDS))`:
 * `250 * 2^attempt` (attempt from 1) capped at 10 s, plus a draw up to 250 ms.
 */
export const guavaRetrying = (random: () => number) => (n: number) =>
  Math.min(250 * 2 ** (n + 1), 10_000) + Math.floor(random() * 250);

/** opnieuw (Channable): exponential backoff with full jitter, a draw in [0, 1 s * 2^n). */
export const opnieuwFullJitter = (random: () => number) => (n: number) => Math.round(random() * 1_000 * 2 ** n);

/**
 * gax-go `Backoff{Initial: 1s, Max: 30s, Multiplier: 1.3}`: `Pause()` draws in [1, cur], then
 * cur = min(cur * 1.3, max): full jitter on a slowly growing cap.
 */
export const gaxGo = (random: () => number) => (n: number) =>
  Math.max(1, Math.round(random() * Math.min(1_000 * 1.3 ** n, 30_000)));

/**
 * Windmill's `retry.exponential { attempts, multiplier 1, seconds 2, random_factor 20 }`:
 * `multiplier * seconds^attempt` (attempt from 1), moved by up to ±20 %.
 */
export const windmill = (random: () => number) => (n: number) =>
  Math.round(1_000 * 2 ** (n + 1) * (1 + (random() * 2 - 1) * 0.2));

/** Apache Beam `FluentBackoff.DEFAULT` (initial 1 s, exponent 1.5, randomization ±50 %). */
export const beamFluent = (random: () => number) => (n: number) => Math.round(1_000 * 1.5 ** n * (0.5 + random()));

/** MicroProfile Fault Tolerance `@Retry(delay = 1000, jitter = 200)`: 1 s moved by up to ±200 ms, every time. */
export const microProfile = (random: () => number) => () => 1_000 + Math.round((random() * 2 - 1) * 200);

/** controller-runtime's default per-item `ItemExponentialFailureRateLimiter(5ms, 1000s)`: 5 ms * 2^n. */
export const workqueueBackoff = (n: number) => 5 * 2 ** n;

/** Runs each read of `READS.slice(from, from + 3)` through `failures` 500s, retrying up to `max` times. */
export async function readsThrough(
  t: Target,
  a: Auth,
  sleep: Sleep,
  o: {
    schedule: Schedule;
    failures: number;
    max: number;
    from?: number;
    kind?: 'internal' | 'unavailable';
    ops?: number;
  },
): Promise<void> {
  for (const [route, path] of READS.slice(o.from ?? 0, (o.from ?? 0) + (o.ops ?? 3))) {
    fault(
      t,
      o.kind === 'unavailable'
        ? { kind: 'unavailable', route, retryAfterSeconds: 0, count: o.failures }
        : { kind: 'internal', route, count: o.failures },
    );
    ok(path, await loop(sleep, () => get(t, a, path), o.schedule, o.max));
    await sleep(5_000);
  }
}
