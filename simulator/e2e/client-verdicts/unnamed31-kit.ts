import { held, type Target, untilHeld } from '../harness.ts';
import { type Auth, api, type Reply } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';

/**
 * Round 31 writes clients of stacks no earlier round used: RxJS 7's `retry({ count, delay })`, Ruby's
 * Excon (`:idempotent`, `:retry_limit`, `:retry_interval`), PHP Swoole coroutines (`Co::sleep`), a Unity
 * headless dedicated server (coroutines, `WaitForSeconds`), JMeter's While Controller with a Constant
 * Timer, and Telegraf-style agents polling on an `interval` with `collection_jitter`. Each schedule is
 * written from the documentation (none is installed), with a seeded draw where it draws; it gets the
 * retry number (0 for the first retry) and returns ms.
 */

/** RxJS `retry({ count: 3, delay: (_e, i) => timer(500 * 2 ** (i - 1) + Math.random() * 250) })`. */
export const rxjsDelay = (random: () => number) => (n: number) => 500 * 2 ** n + Math.floor(random() * 250);

/**
 * RxJS with the jitter computed where the operator is built (`const jitter = Math.random() * 250` beside
 * the `pipe`, module scope): one draw for the process, the same at every position of every sequence.
 */
export function rxjsJitterOnce(random: () => number) {
  const jitter = Math.floor(random() * 250);
  return (n: number) => 500 * 2 ** n + jitter;
}

/** Excon `idempotent: true, retry_limit: 4, retry_interval: 1` (seconds): four attempts, 1 s apart. */
export const exconInterval = { intervalMs: 1_000, retries: 3 };

/** Swoole `Co::sleep(min(0.25 * 3 ** $n, 8) + mt_rand(0, 200) / 1000)`: base 3, a draw of up to 200 ms. */
export const swooleBackoff = (random: () => number) => (n: number) =>
  Math.round(Math.min(250 * 3 ** n, 8_000) + random() * 200);

/** A Unity dedicated server's coroutine: `WaitForSeconds(Mathf.Pow(2, n) * 0.75f + Random.Range(0f, 0.3f))`. */
export const unityCoroutine = (random: () => number) => (n: number) => Math.round(750 * 2 ** n + random() * 300);

/** JMeter: a While Controller around the sampler with a Constant Timer of 1,000 ms (no Random Timer). */
export const jmeterConstantTimer = () => 1_000;

/**
 * Telegraf-style agent: `interval = "10s"`, `collection_jitter = "2s"`: each collection waits the
 * interval plus a fresh draw of up to 2 s, whatever the last answer was (no retry of its own).
 */
export const telegrafInterval = (random: () => number) => () => 10_000 + Math.round(random() * 2_000);

/**
 * A Retry-After read as an HTTP-date in local time: the service's seconds are turned into the date a
 * server would send (`now + s`, written in GMT), which the client parses without its zone in a process
 * running at UTC+1 (Europe/Berlin), so the date it waits for lies an hour earlier: a wait below zero, 0.
 */
export function localTimeRetryAfter(nowMs: number, r: Reply, offsetMinutes = 60): number {
  const until = new Date(Math.floor(nowMs / 1000) * 1000 + r.retryAfterMs);
  // `new Date("Fri, 27 Nov 2026 21:10:05")` without "GMT" is taken as local time: an hour earlier in UTC.
  const asLocal = until.getTime() - offsetMinutes * 60_000;
  return Math.max(0, asLocal - nowMs);
}

/** The same read as an HTTP-date parsed with its GMT zone: the full Retry-After, rounded up to the second. */
export function gmtRetryAfter(nowMs: number, r: Reply): number {
  const until = Math.ceil((nowMs + r.retryAfterMs) / 1000) * 1000;
  return Math.max(0, until - nowMs);
}

/** The sandbox clock in ms. */
export const nowOf = (t: Target) => t.sandbox.state.clock.now();

/**
 * A hedged read (Polly v8 hedging defaults: a copy after 2 s, the first answer wins, the other
 * abandoned): the first GET is held `latencyMs` by a fault; the copy goes out `hedgeMs` later.
 */
export async function hedgedRead(t: Target, a: Auth, path: string, hedgeMs: number) {
  const before = held(t);
  const first = api(t, a, 'GET', path);
  // The copy's delay counts from the first call being held, as Polly's hedging delay counts from its send.
  await untilHeld(t, before);
  await sleeper(t)(hedgeMs);
  const copy = await api(t, a, 'GET', path);
  await sleeper(t)(5_000);
  await first;
  return copy;
}
