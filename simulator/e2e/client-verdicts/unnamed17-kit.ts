import type { Reply } from './unnamed-kit.ts';

/**
 * Round 17 writes clients of stacks no earlier round used: R's httr2, OpenResty (lua-resty-http), F#
 * (FsHttp with a recursive async), Power Automate, Jenkins pipelines, Chef, Puppet and Salt resources,
 * Pulumi dynamic providers, dbt Python models, Snowflake external functions, BigQuery remote functions,
 * Kafka Streams processors, Flink async I/O, Spark tasks, Ray actors, Electron and Tauri apps, WordPress
 * plugins. Each schedule is written from its documentation (none is installed), with a seeded draw. A
 * schedule gets the retry number (0 for the first retry) and returns ms.
 */

/**
 * R httr2 `req_retry(max_tries = 4)`: its default `backoff` is `function(i) round(min(runif(1, 1, 2^i), 60), 1)`
 * seconds (i from 1), and `after` reads a 429/503's Retry-After, which then replaces the backoff.
 */
export const httr2Backoff = (random: () => number) => (n: number, r: Reply) => {
  if (r.retryAfterMs > 0) return r.retryAfterMs;
  const i = n + 1;
  return Math.round(Math.min(1 + random() * (2 ** i - 1), 60) * 10) * 100;
};

/** OpenResty `ngx.sleep(0.5 * 2 ^ n + math.random() * 0.25)`: the interface's sample, in seconds. */
export const openrestySleep = (random: () => number) => (n: number) =>
  Math.round((0.5 * 2 ** n + random() * 0.25) * 1000);

/** F# `do! Async.Sleep (400 * pown 2 n + rnd.Next(100, 300))`: doubling from 400 ms, a draw in [100, 300). */
export const fsharpSleep = (random: () => number) => (n: number) => 400 * 2 ** n + 100 + Math.floor(random() * 200);

/**
 * Flink `AsyncRetryStrategies.ExponentialBackoffDelayRetryStrategyBuilder(maxAttempts, initialDelay 500,
 * maxRetryDelay 8000, multiplier 2.0)`: `min(initial * multiplier^n, max)`, no draw at all.
 */
export const flinkExponential = (n: number) => Math.min(500 * 2 ** n, 8_000);

/**
 * Ray `@ray.remote` task with a hand-written wrapper: `time.sleep(min(30, 0.5 * 2**n) * random.uniform(1, 1.5))`.
 */
export const rayJitter = (random: () => number) => (n: number) =>
  Math.round(Math.min(30, 0.5 * 2 ** n) * (1 + random() * 0.5) * 1000);

/**
 * Power Automate's default retry policy: exponential, four retries, interval drawn around 7 s growing
 * (the engine Logic Apps uses: `[min(7.5 s * 2^(n-1)), 7.5 s * 2^n]`, the first in `[5 s, 7.5 s]`).
 */
export const powerAutomateDefault = (random: () => number) => (n: number) => {
  const low = n === 0 ? 5_000 : 7_500 * 2 ** (n - 1);
  return Math.round(low + random() * (7_500 * 2 ** n - low));
};

/** Kafka Streams' `retry.backoff.ms`-style hand loop in a processor: 1 s * 2^n plus a draw up to 300 ms. */
export const kafkaStreamsBackoff = (random: () => number) => (n: number) => 1_000 * 2 ** n + Math.floor(random() * 300);

/** A WordPress plugin's `wp_schedule_single_event(time() + 30 * 2 ** $n + wp_rand(0, 15))` (seconds). */
export const wpCronDelay = (random: () => number) => (n: number) => (30 * 2 ** n + Math.floor(random() * 16)) * 1000;
