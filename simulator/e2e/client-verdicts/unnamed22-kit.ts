import type { Reply } from './unnamed-kit.ts';

/**
 * Round 22 writes clients of stacks no earlier round used: Stainless-generated SDKs (the OpenAI and
 * Anthropic TypeScript SDKs' retry loop), http4s' Retry middleware, npm's make-fetch-happen, jpillora/backoff,
 * Smithy-generated TypeScript clients (the AWS SDK v3 standard retry strategy), Perl Minion, OpenFeign's
 * Retryer.Default, niquests (urllib3-future's Retry with backoff_jitter). Each schedule is written from the
 * library's documentation or source (none is installed), with a seeded draw. A schedule gets the retry
 * number (0 for the first retry) and returns ms.
 */

/**
 * A Stainless SDK's `calculateDefaultRetryTimeoutMillis`: `min(0.5 * 2^n, 8)` s times `1 - random * 0.25`;
 * a `Retry-After` between 0 and 60 s is slept instead, exactly.
 */
export const stainlessRetry = (random: () => number) => (n: number, r: Reply) =>
  r.retryAfterMs > 0 && r.retryAfterMs <= 60_000
    ? r.retryAfterMs
    : Math.round(Math.min(500 * 2 ** n, 8_000) * (1 - random() * 0.25));

/** http4s `RetryPolicy.exponentialBackoff(maxWait = 8.seconds, maxRetry = 3)`: `2^k` s (k from 1), capped; Retry-After wins when longer. */
export const http4sBackoff = (n: number, r: Reply) => Math.max(Math.min(1_000 * 2 ** (n + 1), 8_000), r.retryAfterMs);

/**
 * make-fetch-happen with npm's defaults (fetch-retries 2, factor 10, mintimeout 10 s, maxtimeout 60 s), through
 * node-retry with `randomize: true`: `min(random[1, 2) * 10 s * 10^n, 60 s)`.
 */
export const makeFetchHappen = (random: () => number) => (n: number) =>
  Math.min(Math.round((1 + random()) * 10_000 * 10 ** n), 60_000);

/**
 * jpillora/backoff `Backoff{Min: 500ms, Max: 10s, Factor: 2, Jitter: true}`: `d = min * 2^n`, then
 * `random * (d - min) + min`: the first retry waits exactly Min, the draws start with the second.
 */
export const jpilloraBackoff = (random: () => number) => (n: number) => {
  const d = Math.min(500 * 2 ** n, 10_000);
  return Math.round(random() * (d - 500) + 500);
};

/**
 * Smithy TypeScript's `StandardRetryStrategy` (the AWS SDK v3 default): `floor(min(20 s, random * 2^attempts *
 * 100 ms))`, attempts counted from 1: full jitter on a 100 ms base.
 */
export const smithyStandard = (random: () => number) => (n: number) =>
  Math.floor(Math.min(20_000, random() * 2 ** (n + 1) * 100));

/** Perl Minion's default backoff: `retries ** 4 + 15` s (retries from 0): 15 s, 16 s, 31 s. */
export const minionBackoff = (n: number) => (n ** 4 + 15) * 1_000;

/**
 * OpenFeign `Retryer.Default(period 100, maxPeriod 1000, maxAttempts 5)`: `period * 1.5^(attempt - 1)`
 * capped at maxPeriod; a Retry-After is turned into an interval, and capped at maxPeriod too.
 */
export const feignDefault = (n: number, r: Reply) =>
  Math.min(r.retryAfterMs > 0 ? r.retryAfterMs : Math.round(100 * 1.5 ** n), 1_000);

/**
 * urllib3 2.x / niquests `Retry(backoff_factor=0.5, backoff_jitter=0.3)`: no sleep before the first retry,
 * then `0.5 * 2^(n - 1)` s plus `random * 0.3` s; Retry-After (413, 429, 503) slept exactly.
 */
export const niquestsRetry = (random: () => number) => (n: number, r: Reply) =>
  r.retryAfterMs > 0 ? r.retryAfterMs : n === 0 ? 0 : Math.round(500 * 2 ** (n - 1) + random() * 300);
