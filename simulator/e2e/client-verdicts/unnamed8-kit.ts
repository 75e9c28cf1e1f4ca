import type { Target } from '../harness.ts';
import { type Auth, api, type Reply } from './unnamed-kit.ts';
import type { Sleep } from './unnamed5-fleet.ts';

/**
 * Round 8 writes clients of stacks no earlier round used (Haskell `retry`, ZIO schedules, Ruby
 * `retriable`, Laravel's HTTP client, ky, avast/retry-go, Micronaut, Dart dio_smart_retry, Python
 * stamina, p-retry) and clients whose evidence interleaves: shared tokens, many operations at once,
 * long runs. Each schedule is written from the library's documentation (none is installed), with a
 * seeded draw for its randomness. A schedule gets the retry number (0 for the first) and returns ms.
 */

/** Haskell `retry`'s `fullJitterBackoff base`: `d = base * 2^n / 2`, then `d + randomRIO (0, d)`. */
export const haskellFullJitter = (baseMs: number, random: () => number) => (n: number) => {
  const d = (baseMs * 2 ** n) / 2;
  return Math.round(d + random() * d);
};

/** ZIO `Schedule.exponential(base).jittered`: `base * 2^n` times a draw in [0.8, 1.2] (the defaults). */
export const zioJittered = (baseMs: number, random: () => number) => (n: number) =>
  Math.round(baseMs * 2 ** n * (0.8 + random() * 0.4));

/**
 * Ruby `retriable` defaults (`base_interval: 0.5, multiplier: 1.5, rand_factor: 0.5`): the interval
 * `0.5 * 1.5^n` s drawn in `[interval * 0.5, interval * 1.5]`.
 */
export const rubyRetriable = (random: () => number) => (n: number) => {
  const interval = 500 * 1.5 ** n;
  return Math.round(interval * (0.5 + random()));
};

/** Laravel `Http::retry(3, fn ($attempt) => $attempt * 400 + random_int(0, 200))`: linear, with a draw. */
export const laravelLinear = (random: () => number) => (n: number) => (n + 1) * 400 + Math.floor(random() * 201);

/**
 * ky `retry: { limit: 3, jitter: true }`: `0.3 * 2^(n) s` (n from 0), full jitter on it; on 413, 429
 * and 503 with Retry-After, that header instead (ky's `afterStatusCodes`). GET only by default.
 */
export const kyJitter = (random: () => number) => (n: number, r: Reply) =>
  r.retryAfterMs > 0 && (r.status === 429 || r.status === 503) ? r.retryAfterMs : Math.round(random() * 300 * 2 ** n);

/** avast/retry-go `Attempts(4), Delay(500ms), MaxJitter(250ms)` with the default CombineDelay(BackOff, Random). */
export const retryGo = (random: () => number) => (n: number) => 500 * 2 ** n + Math.floor(random() * 250);

/** Micronaut `@Retryable(attempts = "4", delay = "500ms", multiplier = "2.0", jitter = 0.25)`: `delay * 2^n ± 25 %`. */
export const micronaut = (random: () => number) => (n: number) => Math.round(500 * 2 ** n * (0.75 + random() * 0.5));

/** Dart dio_smart_retry's default `retryDelays`: 1 s, 2 s, 3 s, fixed (linear, no jitter). */
export const dioSmartRetry = (n: number) => [1_000, 2_000, 3_000][n] ?? 3_000;

/**
 * Python stamina `@stamina.retry(on=..., attempts=10)` defaults: `wait_initial 0.1 s * 2^(n) + uniform(0,
 * wait_jitter 1 s)`, capped at `wait_max 5 s`: ten attempts.
 */
export const staminaWait = (random: () => number) => (n: number) =>
  Math.round(Math.min(100 * 2 ** n + random() * 1_000, 5_000));

/** Kotlin `flow.retryWhen { _, attempt -> delay(1000 * (attempt + 1)); attempt < 3 }`: linear, no jitter. */
export const kotlinLinear = (n: number) => 1_000 * (n + 1);

/** A 200 answer, or the run throws: a well-behaved client's success it relies on. */
export function ok(what: string, r: Reply): Reply {
  if (r.status !== 200) throw new Error(`${what} answered ${r.status}`);
  return r;
}

/**
 * One operation retried after 429, 5xx or no answer, up to `max` retries, sleeping `wait(n, r)` (a
 * 429's Retry-After is a floor unless `ignoreRetryAfter`).
 */
export async function retrying(
  sleep: Sleep,
  send: () => Promise<Reply>,
  wait: (n: number, r: Reply) => number,
  o: { max?: number; retryIf?: (r: Reply) => boolean; ignoreRetryAfter?: boolean } = {},
): Promise<Reply> {
  const retryIf = o.retryIf ?? ((r: Reply) => r.status === 0 || r.status === 429 || r.status >= 500);
  let r = await send();
  for (let n = 0; n < (o.max ?? 3) && retryIf(r); n++) {
    const own = wait(n, r);
    await sleep(o.ignoreRetryAfter ? own : Math.max(own, r.status === 429 ? r.retryAfterMs : 0));
    r = await send();
  }
  return r;
}

/** A GET of `path` with `a`. */
export const get = (t: Target, a: Auth, path: string) => api(t, a, 'GET', path);
