import type { Target } from '../harness.ts';
import { type Auth, fault, type Reply } from './unnamed-kit.ts';
import type { Sleep } from './unnamed5-fleet.ts';
import { get, ok } from './unnamed8-kit.ts';
import { loop } from './unnamed11-kit.ts';

/**
 * Round 36 writes clients of stacks no earlier round used: Angular HttpClient's RxJS `retry({ count, delay })`,
 * Fluentd's out_http buffer retries, ts-retry-promise, Grpc.Net's retry policy copied onto HTTP, Apache
 * HttpClient 4's `DefaultServiceUnavailableRetryStrategy`, Hystrix's command timeout, ABAP `WAIT UP TO n
 * SECONDS`, Delphi `Random` with and without `Randomize`, Babashka scripts, Erlang httpc loops. Each schedule
 * is written from the documentation (none is installed), with a seeded draw where it draws; it gets the retry
 * number (0 for the first retry) and returns ms.
 */

/** Angular `retry({ count: 3, delay: (_e, n) => timer(500 * 2 ** (n - 1) + Math.random() * 250) })`, n from 1. */
export const angularDelay = (random: () => number) => (n: number) => 500 * 2 ** n + Math.floor(random() * 250);

/**
 * Fluentd buffer retries (`retry_type exponential_backoff`, `retry_wait 1s`, `retry_exponential_backoff_base
 * 2`, `retry_randomize true`): `1 s * 2^n`, moved by up to ±12.5 % (its randomize width). `retry_max_times`
 * is unset by default: it retries until `retry_timeout` (72 h).
 */
export const fluentdWait = (random: () => number) => (n: number) =>
  Math.round(1_000 * 2 ** n * (1 + (random() * 2 - 1) * 0.125));

/** ts-retry-promise `retry(fn, { retries: 3, delay: 1000 })`: `backoff` defaults to "FIXED", every wait 1 s. */
export const tsRetryPromiseFixed = () => 1_000;

/**
 * The gRPC retry policy of the Grpc.Net docs' example (`MaxAttempts = 5, InitialBackoff 1 s, MaxBackoff 5 s,
 * BackoffMultiplier 1.5`): the nth retry waits `random(0, min(1 s * 1.5^(n-1), 5 s))`; five attempts.
 */
export const grpcNetPolicy = (random: () => number) => (n: number) =>
  Math.round(random() * Math.min(1_000 * 1.5 ** n, 5_000));
export const GRPC_NET_MAX_ATTEMPTS = 5;

/**
 * An ABAP loop `lv_wait = 500 * 2 ** n + random( 250 ). WAIT UP TO lv_wait / 1000 SECONDS.` where lv_wait /
 * 1000 lands in a type i: ABAP rounds (half up) and waits whole seconds: 1 s, 1 s, 2 s whatever the draw.
 */
export const abapWaitUpTo = (random: () => number) => (n: number) =>
  Math.round((500 * 2 ** n + Math.floor(random() * 250)) / 1_000) * 1_000;

/**
 * Delphi `Random` is a fixed linear congruential generator (RandSeed 0 at start, `Randomize` seeds it from
 * the clock): without `Randomize` every process draws the same sequence. The loop sleeps `500 shl n +
 * Random(250)`; `seed` stands for RandSeed.
 */
export function delphiRandom(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 134775813) + 1) >>> 0;
    return s / 2 ** 32;
  };
}
export const delphiSleep = (random: () => number) => (n: number) => (500 << n) + Math.floor(random() * 250);

/** One run of a cron job: a read of `path` through `failures` 500s, retried on `schedule` (up to 3 retries). */
export async function cronRun(
  t: Target,
  a: Auth,
  sleep: Sleep,
  o: { schedule: (n: number, r: Reply) => number; failures: number; path: string; route: string },
) {
  fault(t, { kind: 'internal', route: o.route, count: o.failures });
  ok(o.path, await loop(sleep, () => get(t, a, o.path), o.schedule, 3));
}

/** The capability check Fluentd's out_http posts (a POST that changes nothing and takes no key). */
export const CAPABILITY_CHECK = { connectorId: 'tillcraft-pos-cloud', capability: 'orders.read' };
