/**
 * Round 21 writes clients of stacks no earlier round used: Python's `retry` decorator, Rust tryhard,
 * ElixirRetry, softwaremill's Scala retry, Dramatiq, bee-queue, Rican7/retry, @lifeomic/attempt,
 * michaelbull/kotlin-retry, Karafka, Spring Cloud Gateway, wget, Retool workflows, Firebase functions,
 * Convex's action retrier, Playwright's `toPass`, Hurl. Each schedule is written from its documentation
 * (none is installed), with a seeded draw. A schedule gets the retry number (0 for the first retry) and
 * returns ms.
 */

/**
 * Python `retry` (invl) `@retry(tries, delay, backoff, jitter=(lo, hi))`: sleeps `_delay`, then
 * `_delay = _delay * backoff + uniform(lo, hi)`: the first sleep is exact, the draws accumulate.
 * Stateful: one per retry sequence.
 */
export function invlRetry(o: { delayMs: number; backoff: number; jitterMs: [number, number] }, random: () => number) {
  let delay = o.delayMs;
  return () => {
    const sleep = Math.round(delay);
    delay = delay * o.backoff + o.jitterMs[0] + random() * (o.jitterMs[1] - o.jitterMs[0]);
    return sleep;
  };
}

/** Rust tryhard `.exponential_backoff(500ms).max_delay(5s)`: 500 ms doubled per retry, capped, no draw. */
export const tryhardExponential = (n: number) => Math.min(500 * 2 ** n, 5_000);

/**
 * ElixirRetry `exponential_backoff(500) |> randomize |> cap(5_000)`: `500 * 2^n`, moved by up to ±10 %
 * (randomize's default proportion), capped.
 */
export const elixirRetry = (random: () => number) => (n: number) =>
  Math.min(5_000, Math.round(500 * 2 ** n * (1 + (random() * 2 - 1) * 0.1)));

/** softwaremill retry `JitterBackoff(max = 3, delay = 500.millis)` with `Jitter.full`: `random(0, 500 * 2^n)`. */
export const softwaremillFull = (random: () => number) => (n: number) => Math.round(random() * 500 * 2 ** n);

/**
 * Dramatiq's Retries middleware: `compute_backoff(retries, factor=min_backoff)` with retries counted from 1:
 * `b = min(min_backoff * 2^(n + 1), max_backoff) / 2`, then `b + uniform(0, b)` (equal jitter).
 */
export const dramatiqBackoff = (minMs: number, maxMs: number, random: () => number) => (n: number) => {
  const b = Math.min(minMs * 2 ** (n + 1), maxMs) / 2;
  return Math.round(b + random() * b);
};

/** bee-queue `job.retries(3).backoff('exponential', 1000)`: 1 s doubled per retry, no draw. */
export const beeQueueExponential = (n: number) => 1_000 * 2 ** n;

/**
 * Rican7/retry `strategy.BackoffWithJitter(backoff.BinaryExponential(500ms), jitter.Deviation(r, 0.5))`:
 * `500 * 2^n` moved by up to ±50 %.
 */
export const rican7Deviation = (random: () => number) => (n: number) =>
  Math.round(500 * 2 ** n * (1 + (random() * 2 - 1) * 0.5));

/**
 * michaelbull/kotlin-retry `decorrelatedJitterBackoff(base = 500, max = 10_000)`: each delay drawn between
 * base and three times the previous, capped. Stateful: one per retry sequence.
 */
export function kotlinDecorrelated(random: () => number) {
  let previous = 500;
  return () => {
    previous = Math.min(10_000, Math.round(500 + random() * (previous * 3 - 500)));
    return previous;
  };
}

/** Karafka `pause_timeout 1_000, pause_max_timeout 30_000, pause_with_exponential_backoff true`. */
export const karafkaPause = (n: number) => Math.min(1_000 * 2 ** n, 30_000);

/** wget `--waitretry=10`: linear, 1 s after the first failure, 2 s after the second ..., up to 10 s. */
export const wgetLinear = (n: number) => Math.min(n + 1, 10) * 1_000;

/** Playwright `expect(...).toPass({ intervals: [1_000, 2_000, 10_000] })`: the last interval repeats. */
export const playwrightToPass = (n: number) => [1_000, 2_000][n] ?? 10_000;

/**
 * Convex `@convex-dev/action-retrier` (initialBackoffMs 250, base 2, maxFailures 4): `250 * 2^n`, moved by a
 * draw in [0.5, 1.5).
 */
export const convexRetrier = (random: () => number) => (n: number) => Math.round(250 * 2 ** n * (0.5 + random()));

/** A Retool workflow block's "Retry on failure" (interval 1000 ms, exponential backoff): 1 s, 2 s, 4 s. */
export const retoolRetry = (n: number) => 1_000 * 2 ** n;
