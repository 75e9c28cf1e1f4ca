import type { Target } from '../harness.ts';
import { type Auth, fault, READS, type Reply } from './unnamed-kit.ts';
import type { Sleep } from './unnamed5-fleet.ts';
import { get, ok } from './unnamed8-kit.ts';
import { loop } from './unnamed11-kit.ts';

/**
 * Round 25 writes clients of stacks no earlier round used: Java Failsafe, Rust backon, Julia HTTP.jl, Elixir
 * Oban, the npm `exponential-backoff` package, Flurl with a hand-written policy, MuleSoft until-successful,
 * Excel Power Query's `Value.WaitFor`, Common Lisp dexador. Each schedule is written from the library's
 * documentation (none is installed), with a seeded draw; it gets the retry number (0 for the first retry)
 * and the failed answer, and returns ms.
 */

/** Failsafe `RetryPolicy.withBackoff(500ms, 10s, 2.0).withJitter(0.25)`: `500 * 2^n`, moved by up to ±25 %. */
export const failsafeBackoff = (random: () => number) => (n: number) =>
  Math.round(Math.min(500 * 2 ** n, 10_000) * (1 + (random() * 2 - 1) * 0.25));

/**
 * Rust backon `ExponentialBuilder::default().with_jitter()`: min 1 s, factor 2, max 3 times; the jitter adds
 * up to the whole current delay (`cur + cur * rand`).
 */
export const backonJitter = (random: () => number) => (n: number) => Math.round(1_000 * 2 ** n * (1 + random()));

/**
 * Julia HTTP.jl's `retry` with `ExponentialBackOff(n = 3, first_delay = 0.2, factor = 3, jitter = 0.1)`
 * (Base's defaults but a larger first delay): `200 * 3^n`, moved by up to ±10 %.
 */
export const juliaBackoff = (random: () => number) => (n: number) =>
  Math.round(200 * 3 ** n * (1 + (random() * 2 - 1) * 0.1));

/** Elixir Oban's default worker backoff: `attempt^4 + 15 + rand(30 * attempt)` s, attempt counted from 1. */
export const obanBackoff = (random: () => number) => (n: number) =>
  ((n + 1) ** 4 + 15 + Math.floor(random() * 30 * (n + 1))) * 1_000;

/** npm `exponential-backoff` `{ startingDelay: 500, timeMultiple: 2, jitter: 'full' }`: `rand * 500 * 2^n`. */
export const npmFullJitter = (random: () => number) => (n: number) => Math.round(random() * 500 * 2 ** (n + 1));

/** MuleSoft `until-successful` with `millisBetweenRetries="2000"`: a fixed wait, no growth, no spread. */
export const untilSuccessful = () => 2_000;

/** A Common Lisp `dexador` handler-bind loop: `(sleep (+ (expt 2 n) (random 0.5)))` s. */
export const dexadorSleep = (random: () => number) => (n: number) => 1_000 * 2 ** n + Math.round(random() * 500);

/**
 * A 429's Retry-After counted from the answer's `Date` header rather than from its arrival: the client
 * subtracts the second the `Date` lags (Date is truncated to the second, and the client's clock read 900 ms
 * past it), so it sleeps 900 ms short.
 */
export const dateAnchored = (_n: number, r: Reply) => Math.max(0, r.retryAfterMs - 900);

/** Each read of READS[from..from+ops] through `failures` 500s, retried on `schedule`, `gapMs` between reads. */
export async function readsOn(
  t: Target,
  a: Auth,
  sleep: Sleep,
  o: { schedule: (n: number, r: Reply) => number; failures: number; max: number; from?: number; ops?: number },
) {
  for (const [route, path] of READS.slice(o.from ?? 0, (o.from ?? 0) + (o.ops ?? 3))) {
    fault(t, { kind: 'internal', route, count: o.failures });
    ok(path, await loop(sleep, () => get(t, a, path), o.schedule, o.max));
    await sleep(5_000);
  }
}

/** Two layers retrying one read: an SDK's `inner` retries inside each of the job's `outer` attempts. */
export async function nested(
  sleep: Sleep,
  send: () => Promise<Reply>,
  o: { inner: number[]; outer: number[] },
): Promise<Reply> {
  let r: Reply = { status: 0, json: undefined, retryAfterMs: 0 };
  for (let job = 0; job <= o.outer.length; job++) {
    r = await send();
    for (let i = 0; i < o.inner.length && (r.status === 429 || r.status >= 500); i++) {
      await sleep(o.inner[i] ?? 0);
      r = await send();
    }
    if (r.status === 200) return r;
    if (job < o.outer.length) await sleep(o.outer[job] ?? 0);
  }
  return r;
}
