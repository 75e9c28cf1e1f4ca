import { CURRENT_VERSION } from '../../contract/versions.ts';
import { sleepOn, type Target } from '../harness.ts';
import type { Auth, Reply } from './unnamed-kit.ts';
import type { Sleep } from './unnamed5-fleet.ts';

/**
 * Round 6 writes clients in the style of other languages' HTTP stacks: each schedule below is the one
 * that stack computes (written from its documentation or source, none is installed), with a seeded draw
 * for its randomness, so no verdict rests on luck. A schedule gets the retry number (0 for the first
 * retry unless said otherwise) and returns the sleep in ms.
 */

/** A client's sleep on the sandbox clock of `t` (advanced, never slept). */
export const sleeper =
  (t: Target): Sleep =>
  (ms) =>
    sleepOn(t, ms);

/**
 * Reactor `Retry.backoff(n, minBackoff).maxBackoff(max).jitter(f)` as Spring's WebClient `retryWhen`
 * uses it: `next = min(min * 2^iteration, max)`, then a jitter drawn in
 * `[max(min - next, -next * f), min(max - next, next * f)]` (so it never goes below minBackoff).
 */
export const reactorBackoff = (o: { minMs: number; maxMs: number; jitter: number; random: () => number }) =>
  function wait(iteration: number): number {
    const next = Math.min(o.minMs * 2 ** iteration, o.maxMs);
    const low = Math.max(o.minMs - next, -next * o.jitter);
    const high = Math.min(o.maxMs - next, next * o.jitter);
    return Math.round(next + low + o.random() * (high - low));
  };

/** A hand-written Go backoff (`d := base << n; capped; d/2 + rand.Int63n(d/2)`): "equal jitter". */
export const goEqualJitter = (baseMs: number, capMs: number, random: () => number) => (n: number) => {
  const d = Math.min(baseMs * 2 ** n, capMs);
  return Math.floor(d / 2 + random() * (d / 2));
};

/**
 * Rust `retry-policies` `ExponentialBackoff::builder().retry_bounds(min, max).jitter(Jitter::Bounded)
 * .base(2)` (reqwest-retry's policy): `unjittered = min * 2^n`, then `min + random * (unjittered - min)`,
 * capped at max. Its first retry waits exactly min: the spread starts with the second.
 */
export const reqwestBounded = (minMs: number, maxMs: number, random: () => number) => (n: number) =>
  Math.min(maxMs, Math.round(minMs + random() * (minMs * 2 ** n - minMs)));

/**
 * Ktor `HttpRequestRetry { exponentialDelay() }`: `min(2^retry * 1000, 60 000) + random(0..1000)` ms,
 * retry counted from 1; with `respectRetryAfterHeader` the larger of that and Retry-After.
 */
export const ktorExponential = (random: () => number) => (retry: number, r: Reply) =>
  Math.max(Math.min(2 ** retry * 1000, 60_000) + Math.floor(random() * 1000), r.retryAfterMs);

/**
 * Ruby `Faraday::Retry` (`interval: 0.5, backoff_factor: 2, interval_randomness: 0.5`):
 * `interval * factor^n + rand * randomness * interval`; with a Retry-After header, exactly that.
 */
export const faradayRetry = (random: () => number) => (n: number, r: Reply) =>
  r.retryAfterMs > 0 ? r.retryAfterMs : Math.round(500 * 2 ** n + random() * 0.5 * 500);

/** Sidekiq's default retry delay in seconds: `count**4 + 15 + rand(10) * (count + 1)`, count from 0. */
export const sidekiqDelayMs = (count: number, random: () => number) =>
  (count ** 4 + 15 + Math.floor(random() * 10) * (count + 1)) * 1000;

/** Python `backoff.expo` (base 2, factor 1 s) with `backoff.full_jitter`: `uniform(0, 2^n)` s. */
export const pythonBackoffExpo = (random: () => number) => (n: number) => Math.round(random() * 2 ** n * 1000);

/**
 * Go `cenkalti/backoff` `ExponentialBackOff` (initial 500 ms, multiplier 1.5, randomization 0.5):
 * interval i drawn in `[i * 0.5, i * 1.5]`, then i *= 1.5. Stateful: one per retry sequence.
 */
export function cenkalti(random: () => number) {
  let interval = 500;
  return () => {
    const drawn = Math.round(interval * 0.5 + random() * interval);
    interval *= 1.5;
    return drawn;
  };
}

/**
 * A call its client may abandon (Polly's hedging cancels the slower copy): the reply, and `abort()`,
 * which closes the connection before the answer.
 */
export function abortable(t: Target, a: Auth, method: string, path: string) {
  const ctrl = new AbortController();
  const reply: Promise<Reply> = t
    .fetch(`${t.baseUrl}/api/public/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${a.token}`, 'x-service-tenant': a.tenant, 'service-version': CURRENT_VERSION },
      signal: ctrl.signal,
    })
    .then(async (res) => ({
      status: res.status,
      json: await res.json().catch(() => undefined),
      retryAfterMs: Number(res.headers.get('retry-after') ?? 0) * 1000,
    }))
    .catch(() => ({ status: 0, json: undefined, retryAfterMs: 0 }));
  return { reply, abort: () => ctrl.abort() };
}

/** A token-bucket limiter on the client's side, shared by workers: `take` sleeps until a slot is free. */
export function tokenBucket(now: () => number, perSecond: number) {
  let nextFree = 0;
  return {
    async take(sleep: Sleep) {
      const at = Math.max(now(), nextFree);
      nextFree = at + 1000 / perSecond;
      if (at > now()) await sleep(at - now());
    },
    /** After a 429 every worker holds back until Retry-After has passed. */
    pauseUntil(at: number) {
      nextFree = Math.max(nextFree, at);
    },
  };
}
