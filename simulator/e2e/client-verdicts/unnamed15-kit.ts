import type { Target } from '../harness.ts';
import { type Auth, publish, type Reply, readStream } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';

/**
 * Round 15 writes clients of stacks no earlier round used: Erlang hackney with ferd's `backoff`, gun,
 * OCaml cohttp, Crystal's `retriable` shard, Gleam on the BEAM, Java 11's java.net.http client written by
 * hand, Deno's std/async `retry`, Vert.x circuit breakers, Akka's RetrySupport, .NET Refit, SAP CPI
 * iFlows, ServiceNow IntegrationHub, Boomi Try/Catch, Linkerd retry budgets. Each schedule is written from
 * the library's documentation (none is installed), with a seeded draw. A schedule gets the retry number
 * (0 for the first retry) and the answer, and returns ms.
 */

/**
 * ferd/backoff `backoff:init(500, 8000)` stepped with `rand_increment/2`: the next delay is drawn between
 * the current one and three times it (`N + rand:uniform(2N)`), capped. Stateful: one per operation.
 */
export function ferdRandIncrement(random: () => number, startMs = 500, capMs = 8_000) {
  let current = startMs;
  return () => {
    const drawn = current;
    current = Math.min(capMs, Math.round(current + random() * 2 * current));
    return drawn + Math.floor(random() * 100);
  };
}

/**
 * Crystal `retriable` shard: `Retriable.retry(max_attempts: 4, base_interval: 0.5.seconds,
 * multiplier: 1.5, rand_factor: 0.5)`: interval `base * multiplier^n`, moved by up to ±rand_factor of it.
 */
export const crystalRetriable =
  (random: () => number, o = { baseMs: 500, multiplier: 1.5, randFactor: 0.5 }) =>
  (n: number) => {
    const interval = o.baseMs * o.multiplier ** n;
    return Math.round(interval * (1 - o.randFactor + random() * 2 * o.randFactor));
  };

/**
 * Deno std/async `retry(fn, { multiplier, maxTimeout, maxAttempts, minTimeout, jitter })`: the delay
 * before attempt n + 1 is `min(maxTimeout, minTimeout * multiplier^n)` times `1 - jitter * random`.
 * Its defaults: multiplier 2, maxTimeout 60 s, maxAttempts 5, minTimeout 1 s, jitter 1 (full jitter).
 */
export const denoStdRetry =
  (random: () => number, o: { minTimeout?: number; multiplier?: number; maxTimeout?: number; jitter?: number } = {}) =>
  (n: number) => {
    const exp = Math.min(o.maxTimeout ?? 60_000, (o.minTimeout ?? 1_000) * (o.multiplier ?? 2) ** n);
    return Math.round(exp * (1 - (o.jitter ?? 1) * random()));
  };

/** Vert.x `RetryPolicy.exponentialDelayWithJitter(initial, max)`: a draw in [0, min(max, initial * 2^n)]. */
export const vertxJitter =
  (random: () => number, initialMs = 500, maxMs = 8_000) =>
  (n: number) =>
    Math.round(random() * Math.min(maxMs, initialMs * 2 ** (n + 1)));

/**
 * Akka `RetrySupport.retry(attempt, attempts, minBackoff, maxBackoff, randomFactor)`: `min * 2^n` capped,
 * times `1 + random * randomFactor` (the formula of Akka's BackoffSupervisor).
 */
export const akkaBackoff =
  (random: () => number, minMs = 500, maxMs = 5_000, factor = 0.2) =>
  (n: number) =>
    Math.round(Math.min(maxMs, minMs * 2 ** n) * (1 + random() * factor));

/** The interface's sample schedule written by hand (Java 11, Gleam, OCaml): 500 ms * 2^n plus up to 250 ms. */
export const sample = (random: () => number) => (n: number) => 500 * 2 ** n + Math.floor(random() * 250);

/** Retry-After when the answer gave one (seconds, as the interface says), plus a draw; else `otherwise`. */
export const afterRetryAfter =
  (random: () => number, otherwise: (n: number) => number) =>
  (n: number, r: Reply): number =>
    r.retryAfterMs > 0 ? r.retryAfterMs + Math.floor(random() * 250) : otherwise(n);

/** Boomi Try/Catch shape's fixed retry delays: 10 s, 30 s, 60 s, 120 s, 300 s. */
export const boomiTryCatch = (n: number) => [10_000, 30_000, 60_000, 120_000, 300_000][n] ?? 300_000;

/**
 * An SSE consumer that commits its position to a store only every `every` messages (a checkpoint
 * interval), reading one stream until cut after `cutAfter`, then resuming from `resume(last, committed)`.
 */
export async function checkpointedStream(
  t: Target,
  a: Auth,
  o: { every: number; cutAfter: number; resume: (last: number, committed: number) => number },
): Promise<number[]> {
  t.sandbox.control.addFault({ kind: 'stream_cut', afterMessages: o.cutAfter, count: 1 });
  const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, o.cutAfter) });
  const last = ids.at(-1) ?? 0;
  const committed = ids.filter((_, i) => (i + 1) % o.every === 0).at(-1) ?? 0;
  await sleeper(t)(1_500);
  return readStream(t, a, {
    cursor: o.resume(last, committed),
    idleMs: 600,
    onOpen: () => publish(t, a.tenant, 2),
  });
}
