import type { Reply } from './unnamed-kit.ts';

/**
 * Round 23 writes clients of stacks no earlier round used: R httr's RETRY(), Retry4j, Scala Monix and fs2,
 * Rust tower's retry layer, eapache/go-resiliency's retrier, the Clojure `again` library, PHP Saloon and
 * HTTPlug's RetryPlugin, Python arq, taskiq and Procrastinate, Go Machinery, JobRunr, db-scheduler, the Ruby
 * `retryable` gem. Each schedule is written from the library's documentation or source (none is
 * installed), with a seeded draw. A schedule gets the retry number (0 for the first retry) and returns ms.
 */

/**
 * R httr `RETRY(pause_base = 0.5, pause_min = 0.5, pause_cap = 60)`: full jitter with a floor,
 * `max(pause_min, runif(max = min(pause_cap, pause_base * 2^i)))`, i from 1.
 */
export const httrRetry = (random: () => number) => (n: number) =>
  Math.round(Math.max(500, random() * Math.min(60_000, 500 * 2 ** (n + 1))));

/** Retry4j `withRandomExponentialBackoff()` (delay 500 ms): `500 * 2^n` times a draw in [0.75, 1.25]. */
export const retry4jRandomExponential = (random: () => number) => (n: number) =>
  Math.round(Math.min(500 * 2 ** n, 5_000) * (0.75 + random() * 0.5));

/** fs2 `Stream.retry(fo, delay = 1.second, nextDelay = _ * 2, maxAttempts = 4)`: 1, 2, 4 s; no Retry-After. */
export const fs2Retry = (n: number) => 1_000 * 2 ** n;

/**
 * A Monix `Task.onErrorRestartLoop` written to read the error's Retry-After, else to double a 1 s delay
 * moved by up to ±20 %.
 */
export const monixRestartLoop = (random: () => number) => (n: number, r: Reply) =>
  r.retryAfterMs > 0 ? r.retryAfterMs : Math.round(1_000 * 2 ** n * (0.8 + random() * 0.4));

/**
 * Rust tower `ExponentialBackoffMaker::new(500ms, 8s, 0.5)` (tower::retry::backoff) in a retry Policy:
 * `min(500 * 2^n, 8 s)` plus up to half of it drawn.
 */
export const towerBackoff = (random: () => number) => (n: number) => {
  const base = Math.min(500 * 2 ** n, 8_000);
  return Math.round(base + random() * base * 0.5);
};

/**
 * eapache/go-resiliency `retrier.New(retrier.ExponentialBackoff(3, 200*time.Millisecond), nil)` with
 * `SetJitter(0.25)`: `200 * 2^n` moved by up to ±25 %.
 */
export const eapacheRetrier = (random: () => number) => (n: number) =>
  Math.round(200 * 2 ** n * (1 + (random() * 2 - 1) * 0.25));

/**
 * Clojure `again` `(max-retries 3 (randomize-strategy 0.5 (multiplicative-strategy 500 2)))`: `500 * 2^n`
 * drawn within ±50 %; the caller's callback sleeps a 429's Retry-After instead.
 */
export const againStrategy = (random: () => number) => (n: number, r: Reply) =>
  r.retryAfterMs > 0 ? r.retryAfterMs : Math.round(500 * 2 ** n * (0.5 + random()));

/** PHP Saloon `$retryInterval = 500; $useExponentialBackoff = true`: 500 ms, 1 s, 2 s; no draw. */
export const saloonExponential = (n: number) => 500 * 2 ** n;

/** PHP HTTPlug `RetryPlugin` default `error_response_delay`: `2^retries` s (1 s, 2 s, 4 s); no draw. */
export const httplugDelay = (n: number) => 1_000 * 2 ** n;

/** Python arq `raise Retry(defer=ctx['job_try'] * 5)`: 5 s, 10 s, 15 s (job_try from 1), plus up to 1 s drawn. */
export const arqDefer = (random: () => number) => (n: number) => (n + 1) * 5_000 + Math.round(random() * 1_000);

/**
 * Python taskiq `SmartRetryMiddleware(default_delay=2, use_delay_exponent=True, use_jitter=True)`: `2 * 2^n`
 * s plus a draw of up to 1 s.
 */
export const taskiqSmartRetry = (random: () => number) => (n: number) => 2_000 * 2 ** n + Math.round(random() * 1_000);

/** Go Machinery's Fibonacci retry timeouts for a task with RetryCount set: 1, 2, 3, 5, 8 s. */
export const machineryFibonacci = (n: number) => ([1, 2, 3, 5, 8, 13, 21][n] ?? 34) * 1_000;

/** JobRunr's default back-off: `3^retries` s (3, 9, 27, 81 s), no draw. */
export const jobRunrBackoff = (n: number) => 3 ** (n + 1) * 1_000;

/** Ruby `retryable` gem `Retryable.retryable(tries: 4, sleep: ->(n) { 4**n })`: 1, 4, 16 s. */
export const retryableGem = (n: number) => 4 ** n * 1_000;
