import type { Target } from '../harness.ts';
import { type Auth, api, type Reply } from './unnamed-kit.ts';

/**
 * Round 48 is about general-purpose HTTP retry middleware of other stacks put in front of this interface's calls,
 * each with the defaults its documentation (or source) states: Python requests with urllib3 `Retry`, Go
 * hashicorp/go-retryablehttp, Java Resilience4j Retry and Spring Retry, .NET Microsoft.Extensions.Http.Resilience's
 * standard handler, Ruby faraday-retry, Rust reqwest-retry, PHP Guzzle's retry middleware, `curl --retry` and
 * `wget --tries`. None is installed: each schedule is written here as the library computes it, with a seeded draw.
 * A schedule gets the retry number (0 for the first retry) and the failed answer, and returns ms.
 */

/**
 * urllib3 2.x `Retry(backoff_factor=f, backoff_jitter=j, respect_retry_after_header=r)`: with a Retry-After on a
 * 413, 429 or 503 (and `r`, the default True) exactly that; else nothing before the first retry (one consecutive
 * error), then `f * 2^(errors - 1)` s plus `random * j` s, capped at 120 s.
 */
export const urllib3Backoff =
  (f: number, j: number, random: () => number, respectRetryAfter = true) =>
  (n: number, r: Reply) =>
    respectRetryAfter && [413, 429, 503].includes(r.status) && r.retryAfterMs > 0
      ? r.retryAfterMs
      : n === 0
        ? 0
        : Math.min(Math.round((f * 2 ** n + random() * j) * 1_000), 120_000);

/**
 * hashicorp/go-retryablehttp `DefaultBackoff` (RetryWaitMin 1 s, RetryWaitMax 30 s): a 429's or 503's Retry-After
 * exactly, else `1 s * 2^attemptNum`, capped at 30 s; no jitter. `DefaultRetryPolicy` retries connection errors,
 * 429 and every 5xx but 501, whatever the method (the body is rewound, the headers kept). RetryMax 4.
 */
export const goRetryable = (n: number, r: Reply) =>
  (r.status === 429 || r.status === 503) && r.retryAfterMs > 0 ? r.retryAfterMs : Math.min(1_000 * 2 ** n, 30_000);

/**
 * Microsoft.Extensions.Http.Resilience `AddStandardResilienceHandler()` retry: 3 retries of 408, 429, 5xx and
 * transport errors (every method), a Retry-After when the answer has one (`ShouldRetryAfterHeader`), else Polly
 * v8's exponential backoff with jitter on a 2 s base (the decorrelated-jitter-v2 formula). One per operation.
 */
export function standardResilience(random: () => number) {
  let prev = 0;
  return (n: number, r: Reply) => {
    const t = n + random();
    const next = 2 ** t * Math.tanh(Math.sqrt(4 * t));
    const delay = ((next - prev) / 1.4) * 2_000;
    prev = next;
    return r.retryAfterMs > 0 ? r.retryAfterMs : Math.round(delay);
  };
}

/**
 * `curl --retry N` (curl 7.66 and later): the first retry after 1 s, each later one after double the last (up to
 * 10 minutes); a Retry-After longer than that is slept instead. `--retry-delay s` fixes every wait at s and turns
 * the doubling off. Retried: timeouts and HTTP 408, 429, 500, 502, 503, 504 (with `--retry-all-errors`, any error,
 * a `--fail`ed 4xx included). Each retry sends the same command line: the same headers and body.
 */
export function curlRetry(o: { retryDelayS?: number } = {}) {
  let sleep = o.retryDelayS !== undefined ? o.retryDelayS * 1_000 : 1_000;
  return (_n: number, r: Reply) => {
    const wait = Math.max(sleep, r.status === 429 || r.status === 503 ? r.retryAfterMs : 0);
    if (o.retryDelayS === undefined) sleep = Math.min(sleep * 2, 600_000);
    return wait;
  };
}

/** `wget --tries` with the default `--waitretry=10`: 1 s after the first failure, 2 s after the second, up to 10 s. */
export const wgetWaitRetry = (n: number) => Math.min(n + 1, 10) * 1_000;

/** Guzzle `RetryMiddleware::exponentialDelay($retries)` (retries from 1): `2^(retries - 1)` s; no jitter, no Retry-After. */
export const guzzleExponential = (n: number) => 1_000 * 2 ** n;

/**
 * reqwest-retry's `RetryTransientMiddleware` over retry-policies' `ExponentialBackoff::builder()` defaults (bounds
 * 1 s to 30 min, base 2, `Jitter::Full`): a uniform draw in `[0, 1 s * 2^n]`. The policy never sees the response:
 * Retry-After is not read (TrueLayer/reqwest-middleware#146).
 */
export const reqwestRetryFull = (random: () => number) => (n: number) =>
  Math.round(random() * Math.min(1_000 * 2 ** n, 1_800_000));

/** Resilience4j `RetryConfig.ofDefaults()`: maxAttempts 3, a fixed 500 ms, every exception retried. */
export const resilience4jDefault = () => 500;

/** Spring Retry `@Retryable` with no arguments: maxAttempts 3, `@Backoff` delay 1000 ms fixed, every exception. */
export const springRetryDefault = () => 1_000;

/** `POST /idempotency-keys` for `operation`: the key the service issued. */
export async function issuedKey(t: Target, a: Auth, operation = 'connection.create'): Promise<string> {
  const r = await api(t, a, 'POST', '/idempotency-keys', { body: { operation } });
  const key = r.json?.data?.idempotencyKey;
  if (r.status !== 200 || typeof key !== 'string') throw new Error(`idempotency-keys answered ${r.status}`);
  return key;
}

/**
 * A POST /webhooks body: the sample event names and a receiver on this host (a local forwarder's port; the sandbox
 * delivers to local hosts only, and nothing is published, so nothing is delivered).
 */
export const hookBody = (port: number) => ({
  url: `http://127.0.0.1:${port}/ncs/webhooks`,
  events: ['order.created', 'order.paid'],
});
