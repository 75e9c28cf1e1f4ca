import type { Target } from '../harness.ts';
import { type Auth, publish, type Reply, readStream } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';

/**
 * Round 38 writes clients of stacks no earlier round used: Watermill's `middleware.Retry`, Exq's job
 * backoff, SWI-Prolog `http_open` loops, Broadway over SQS (visibility timeouts as the retry wait), dlt's
 * REST helper (tenacity's `wait_exponential` and `request_max_attempts`), vibe.d stream readers, OpenResty
 * `ngx.sleep`, kotlinx.serialization request models, Go `oauth2.ReuseTokenSource`, Astro islands, Pharo
 * `ZnClient`; and the edges of round 38: a 401 remedied into a 429, a token renewed during a Retry-After, a
 * proxy dropping Last-Event-ID. Each schedule is written from the documentation (none is installed), with a
 * seeded draw where it draws; it gets the retry number (0 for the first retry) and the failed answer, and
 * returns ms.
 */

/**
 * Watermill `middleware.Retry{MaxRetries: 3, InitialInterval: 500ms, Multiplier: 2, RandomizationFactor:
 * 0.5}` (cenkalti's ExponentialBackOff underneath): `500 * 2^n` drawn in `[0.5, 1.5]` of itself.
 */
export const watermillRetry = (random: () => number) => (n: number) => Math.round(500 * 2 ** n * (0.5 + random()));

/**
 * Exq's default `backoff(count)`: `count^4 + 15 + rand(30) * (count + 1)` s (Sidekiq's formula), count from
 * 1 for the first retry; `max_retries` defaults to 25.
 */
export const exqBackoff = (random: () => number) => (n: number) =>
  ((n + 1) ** 4 + 15 + (1 + Math.floor(random() * 30)) * (n + 2)) * 1_000;
export const EXQ_DEFAULT_RETRIES = 25;

/**
 * SWI-Prolog `sleep(D)` with `D is max(RA, 0.5 * 2**N + random_float * 0.25)`, RA read from the reply's
 * `retry_after` header as seconds.
 */
export const prologSleep = (random: () => number) => (n: number, r: Reply) =>
  Math.max(r.retryAfterMs, Math.round((0.5 * 2 ** n + random() * 0.25) * 1_000));

/**
 * A Broadway SQS pipeline that fails a message with `ChangeMessageVisibility(10 s * 2^receiveCount + up to
 * 3 s)`: the redelivery is the retry. The docs' default instead leaves the queue's fixed visibility timeout
 * (30 s), so every redelivery waits the same.
 */
export const sqsGrowingVisibility = (random: () => number) => (n: number) =>
  10_000 * 2 ** n + Math.floor(random() * 3_000);
export const sqsFixedVisibility = () => 30_000;

/**
 * dlt's REST helper: tenacity `wait_exponential(multiplier=request_backoff_factor 1, max=300)`, i.e. 1 s,
 * 2 s, 4 s, 8 s (no jitter), and `request_max_attempts` 5 by default.
 */
export const dltWait = (n: number) => Math.min(1_000 * 2 ** n, 300_000);
export const DLT_DEFAULT_RETRIES = 4;

/** OpenResty `ngx.sleep(ra * (0.8 + 0.4 * math.random()))`: Retry-After "spread" by ±20 %, so half short. */
export const openrestySpreadRetryAfter = (random: () => number) => (_n: number, r: Reply) =>
  Math.round(r.retryAfterMs * (0.8 + 0.4 * random()));

/**
 * A stream read cut after `n` messages, then one reconnect after `gapMs` with what `resumeWith` makes of the
 * last number read (`{}` stands for a reconnect whose Last-Event-ID a proxy stripped).
 */
export async function cutAndResume(
  t: Target,
  a: Auth,
  resumeWith: (last: number) => { cursor?: number; asQuery?: boolean },
  n = 3,
) {
  t.sandbox.control.addFault({ kind: 'stream_cut', afterMessages: n, count: 1 });
  const ids = await readStream(t, a, { count: n, onOpen: () => publish(t, a.tenant, n) });
  if (ids.length !== n) throw new Error(`read ${ids.length} of ${n}`);
  await sleeper(t)(1_000);
  await readStream(t, a, { ...resumeWith(ids.at(-1) ?? 0), idleMs: 400 });
}

/** Pharo's `(Date year: 2026 month: 7 day: 1) printString`: what a ZnClient sent as Service-Version. */
export const PHARO_DATE_PRINT = '1 July 2026';
