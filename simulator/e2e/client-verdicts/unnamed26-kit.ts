import type { Reply } from './unnamed-kit.ts';

/**
 * Round 26 writes clients of stacks no earlier round used: Effect-TS `Schedule`, Bazel's remote-cache
 * `Retrier`, MassTransit's `UseMessageRetry`, TanStack Query on a server, NServiceBus recoverability with a
 * custom policy, Quartz jobs, a Kotlin `HttpRequestRetry` with `modifyRequest`. Each schedule is written from
 * the library's documentation (none is installed), with a seeded draw; it gets the retry number (0 for the
 * first retry) and the failed answer, and returns ms.
 */

/** Effect-TS `Schedule.exponential("500 millis").pipe(Schedule.jittered)`: `500 * 2^n` times a draw in [0.8, 1.2]. */
export const effectJittered = (random: () => number) => (n: number) =>
  Math.round(500 * 2 ** n * (0.8 + random() * 0.4));

/**
 * Bazel's remote `Retrier` (`ExponentialBackoff`: initial 100 ms, multiplier 2, jitter 0.1, max 5 s):
 * `100 * 2^n` moved by up to ±10 %, short waits with a slight spread.
 */
export const bazelBackoff = (random: () => number) => (n: number) =>
  Math.round(Math.min(100 * 2 ** n, 5_000) * (1 + (random() * 2 - 1) * 0.1));

/**
 * MassTransit `r.Exponential(retryLimit: 3, minInterval: 1 s, maxInterval: 30 s, intervalDelta: 2 s)`:
 * `min + delta * (2^n - 1)`, the delta part moved by ±20 % (the first interval is the fixed minimum).
 */
export const massTransitExponential = (random: () => number) => (n: number) =>
  Math.min(1_000 + Math.round(2_000 * (2 ** n - 1) * (0.8 + random() * 0.4)), 30_000);

/** TanStack Query `retryDelay: (n) => Math.min(1000 * 2 ** n, 30000) + Math.random() * 300` on a server. */
export const tanstackDelay = (random: () => number) => (n: number) =>
  Math.min(1_000 * 2 ** n, 30_000) + Math.round(random() * 300);

/** An NServiceBus custom recoverability policy: delayed retries of `5 s * (n + 1)` plus a draw up to 1 s. */
export const nsbDelayed = (random: () => number) => (n: number) => 5_000 * (n + 1) + Math.round(random() * 1_000);

/** A Quartz job rescheduling itself with a trigger at `now + 2^n s + rand(500 ms)`. */
export const quartzReschedule = (random: () => number) => (n: number) => 1_000 * 2 ** n + Math.round(random() * 500);

/** The larger of a 429's Retry-After and the client's own draw. */
export const atLeastRetryAfter = (own: (n: number) => number) => (n: number, r: Reply) =>
  Math.max(r.retryAfterMs, own(n));
