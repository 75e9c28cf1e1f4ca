import { createHash } from 'node:crypto';
import type { Reply } from './unnamed-kit.ts';

/**
 * Round 7 writes clients of other runtimes and of how work is scheduled (job runners, orchestrators,
 * queues, gateways): each schedule below is the one that runtime computes, written from its
 * documentation or source (none is installed), with a seeded draw for its randomness, so no verdict
 * rests on luck. A schedule gets the retry number (0 for the first retry unless said otherwise) and
 * returns the sleep in ms.
 */

/**
 * Elixir Req's `:retry_delay` when none is given: a 429's or 503's `retry-after` if present, else
 * 1 s, 2 s, 4 s (`Integer.pow(2, n) * 1000`), no jitter; `max_retries: 3`; `retry: :safe_transient`
 * (GET/HEAD only, on 408/429/500/502/503/504 and transport errors).
 */
export const reqDefault = (n: number, r: Reply) => (r.retryAfterMs > 0 ? r.retryAfterMs : 2 ** n * 1000);

/** Req with `retry_delay: fn n -> Integer.pow(2, n) * 500 + :rand.uniform(250) end` (Retry-After still wins). */
export const reqJittered = (random: () => number) => (n: number, r: Reply) =>
  r.retryAfterMs > 0 ? r.retryAfterMs : 2 ** n * 500 + 1 + Math.floor(random() * 250);

/**
 * Rust tokio-retry `ExponentialBackoff::from_millis(base).factor(f)`: the n-th delay is
 * `base^(n+1) * f`, and `.map(jitter)` multiplies it by a draw in [0, 1) (full jitter).
 */
export const tokioRetry = (o: { base: number; factor: number; maxMs: number; random?: () => number }) => (n: number) =>
  Math.round(Math.min(o.base ** (n + 1) * o.factor, o.maxMs) * (o.random ? o.random() : 1));

/**
 * Airflow's `retry_exponential_backoff`: `min_backoff = ceil(retry_delay * 2^(try_number - 2))`, then
 * `min_backoff + sha1(dag#task#logical_date#try) % min_backoff` whole seconds (a jitter the task's
 * identity fixes), capped at 24 h. `tryNumber` is the try about to run (2 for the first retry).
 */
export function airflowDelayMs(o: { retryDelayS: number; dag: string; task: string; date: string; tryNumber: number }) {
  const minBackoff = Math.ceil(o.retryDelayS * 2 ** (o.tryNumber - 2));
  const hash = BigInt(`0x${createHash('sha1').update(`${o.dag}#${o.task}#${o.date}#${o.tryNumber}`).digest('hex')}`);
  return Math.min(minBackoff + Number(hash % BigInt(minBackoff)), 86_400) * 1000;
}

/** The Kubernetes Job controller's back-off before the next pod of a failed Job: 10 s, 20 s, 40 s … capped at 6 min. */
export const jobPodBackoffMs = (failures: number) => Math.min(10_000 * 2 ** (failures - 1), 360_000);

/**
 * Celery `autoretry_for` with `retry_backoff=True, retry_jitter=True, retry_backoff_max=600`:
 * `countdown = randrange(min(600, factor * 2^retries) + 1)` whole seconds (full jitter), factor 1 s.
 */
export const celeryCountdownMs = (retries: number, random: () => number, factor = 1) =>
  Math.floor(random() * (Math.min(600, factor * 2 ** retries) + 1)) * 1000;

/** Oban's default worker backoff: `15 + 2^attempt` s (attempt from 1), plus up to 10 % (`jitter(mode: :inc)`). */
export const obanBackoffMs = (attempt: number, random: () => number) => {
  const base = (15 + 2 ** attempt) * 1000;
  return Math.round(base + random() * 0.1 * base);
};

/** A Temporal activity RetryPolicy: `initialInterval * backoffCoefficient^(attempt - 1)`, no jitter, capped. */
export const temporalIntervalMs = (attempt: number, o = { initialMs: 1_000, coefficient: 2, maxMs: 100_000 }) =>
  Math.min(o.initialMs * o.coefficient ** (attempt - 1), o.maxMs);

/**
 * Python `backoff.fibo` with `backoff.full_jitter` (the library's default jitter): Fibonacci seconds
 * 1, 1, 2, 3, 5 …, each drawn uniformly in [0, value].
 */
export const fiboFullJitterMs = (n: number, random: () => number) => {
  let [a, b] = [1, 1];
  for (let i = 0; i < n; i++) [a, b] = [b, a + b];
  return Math.round(random() * a * 1000);
};

/**
 * Elixir Tesla `Middleware.Retry` (`delay: 500, max_delay: 5_000, jitter_factor: 0.2`):
 * `backoff = min(delay * 2^retries, max_delay)`, then minus `backoff * jitter_factor * rand`.
 */
export const teslaRetryMs = (retries: number, random: () => number) => {
  const backoff = Math.min(500 * 2 ** retries, 5_000);
  return Math.round(backoff - backoff * 0.2 * random());
};

/** Prefect `exponential_backoff(backoff_factor=10)` ([10, 20, 40] s) with `retry_jitter_factor=0.5`: up to half again. */
export const prefectDelayMs = (retry: number, random: () => number) => {
  const base = 10_000 * 2 ** retry;
  return Math.round(base + random() * 0.5 * base);
};

/** failsafe-go `WithBackoff(500ms, 8s).WithJitterFactor(0.25)`: `delay ± delay * 0.25 * rand`, doubling. */
export const failsafeGoMs = (retry: number, random: () => number) => {
  const delay = Math.min(500 * 2 ** retry, 8_000);
  return Math.round(delay + (random() * 2 - 1) * 0.25 * delay);
};

/**
 * Apollo Client's `RetryLink` defaults (`delay: { initial: 300, max: Infinity, jitter: true }`,
 * `attempts: { max: 5, retryIf: (error) => !!error }`): `random * initial * 2^count`, count from 0;
 * any ServerError (every non-2xx answer) is an error, so 4xx are retried too.
 */
export const apolloRetryLinkMs = (count: number, random: () => number) => Math.round(random() * 300 * 2 ** count);

/**
 * OpenFeign's `Retryer.Default` (period 100 ms, maxPeriod 1 s, maxAttempts 5): `period * 1.5^(attempt-1)`,
 * or, when the ErrorDecoder read a Retry-After, the time until it, capped at maxPeriod.
 */
export const feignDefaultMs = (attempt: number, r: Reply) =>
  r.retryAfterMs > 0 ? Math.min(r.retryAfterMs, 1_000) : Math.min(100 * 1.5 ** (attempt - 1), 1_000);
