import type { Target } from '../harness.ts';
import { type Auth, api, type Reply } from './unnamed-kit.ts';
import type { Sleep } from './unnamed5-fleet.ts';

/**
 * Round 11 writes clients of stacks no earlier round used: Spring Retry's ExponentialRandomBackOffPolicy,
 * AWS Step Functions Retry blocks, Hangfire's AutomaticRetry, Arrow's Schedule, sethvargo/go-retry,
 * Apache Camel's redelivery policy, Dapr resiliency policies, BullMQ, go-retryablehttp's defaults, Pekko
 * RestartSource. Each schedule is written from the library's documentation (none is installed), with a
 * seeded draw. A schedule gets the retry number (0 for the first) and returns ms.
 */

/**
 * Spring Retry `ExponentialRandomBackOffPolicy` (initialInterval 500, multiplier 2): the exponential
 * interval `500 * 2^n` stretched by a draw, `interval * (1 + random * (multiplier - 1))`.
 */
export const springExponentialRandom = (random: () => number) => (n: number) => {
  const interval = 500 * 2 ** n;
  return Math.round(interval * (1 + random() * (2 - 1)));
};

/** AWS Step Functions `Retry` (IntervalSeconds 1, BackoffRate 2, JitterStrategy FULL): `random(0, 1 s * 2^n)`. */
export const stepFunctionsFull = (random: () => number) => (n: number) => Math.round(random() * 1_000 * 2 ** n);

/**
 * Hangfire `AutomaticRetryAttribute` delay for attempt `a` (1 for the first retry):
 * `(a - 1)^4 + 15 + random.Next(30) * a` seconds.
 */
export const hangfireDelayMs = (a: number, random: () => number) =>
  ((a - 1) ** 4 + 15 + Math.floor(random() * 30) * a) * 1_000;

/** Arrow `Schedule.exponential(250.milliseconds).jittered()`: `250 * 2^n` times a draw in [1, 2). */
export const arrowJittered = (random: () => number) => (n: number) => Math.round(250 * 2 ** n * (1 + random()));

/** sethvargo/go-retry `WithJitterPercent(10, NewExponential(500ms))`: `500 * 2^n` moved by up to ±10 %. */
export const goRetryJitterPercent = (random: () => number) => (n: number) =>
  Math.round(500 * 2 ** n * (1 + (random() * 2 - 1) * 0.1));

/**
 * Apache Camel `redeliveryPolicy` (redeliveryDelay 1000, useExponentialBackOff, backOffMultiplier 2,
 * useCollisionAvoidance with collisionAvoidanceFactor 0.15): `1000 * 2^n` moved by up to ±15 %.
 */
export const camelRedelivery = (random: () => number) => (n: number) =>
  Math.round(1_000 * 2 ** n * (1 + (random() * 2 - 1) * 0.15));

/**
 * Dapr resiliency `policy: exponential` (cenkalti/backoff underneath: initial 500 ms, multiplier 1.5,
 * randomization factor 0.5): `500 * 1.5^n` drawn in [0.5x, 1.5x].
 */
export const daprExponential = (random: () => number) => (n: number) => Math.round(500 * 1.5 ** n * (0.5 + random()));

/** Dapr resiliency `policy: constant, duration: 1s`: the same second every time, no draw. */
export const daprConstant = () => 1_000;

/** BullMQ `backoff: { type: 'exponential', delay: 1000 }`: `2^(attemptsMade - 1) * 1000`, no jitter. */
export const bullmqExponential = (n: number) => 2 ** n * 1_000;

/** hashicorp/go-retryablehttp `DefaultBackoff` (RetryWaitMin 1 s, RetryWaitMax 30 s): `min * 2^n`, capped. */
export const goRetryableDefault = (n: number) => Math.min(1_000 * 2 ** n, 30_000);

/** Pekko `RestartSource.withBackoff(minBackoff 1 s, maxBackoff 30 s, randomFactor 0.2)`. */
export const pekkoRestart = (random: () => number) => (n: number) =>
  Math.round(Math.min(1_000 * 2 ** n, 30_000) * (1 + random() * 0.2));

/** Retries `send` after 429, 5xx or no answer, up to `max` retries, sleeping `wait(n, r)` exactly. */
export async function loop(
  sleep: Sleep,
  send: (n: number) => Promise<Reply>,
  wait: (n: number, r: Reply) => number,
  max: number,
  retryIf: (r: Reply) => boolean = (r) => r.status === 0 || r.status === 429 || r.status >= 500,
): Promise<Reply> {
  let r = await send(0);
  for (let n = 0; n < max && retryIf(r); n++) {
    await sleep(wait(n, r));
    r = await send(n + 1);
  }
  return r;
}

/** A POST /connections with `body` under `key`, optional extra headers (trace ids, origin). */
export const createWith = (t: Target, a: Auth, body: object, key: string, headers: Record<string, string> = {}) =>
  api(t, a, 'POST', '/connections', { body, key, headers });

/** A replayed success, or the run throws: the retry under the same key got the first outcome. */
export function replayed(what: string, r: Reply): Reply {
  if (r.status !== 200 || r.json?.meta?.replayed !== true) throw new Error(`${what}: ${r.status}, not replayed`);
  return r;
}
