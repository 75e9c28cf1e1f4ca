import type { Reply } from './unnamed-kit.ts';

/**
 * Round 47 is about clients written by code generators and commercial SDK generators, each with the retry and
 * timeout defaults its documentation states: openapi-generator's typescript-fetch, python (urllib3 `Retry`), java
 * (OkHttp) and go clients (no retries of their own), Microsoft Kiota's RetryHandler, NSwag and Refit behind Polly,
 * oapi-codegen, Orval with axios-retry, Stainless, Speakeasy and Fern SDKs, and receivers in the servers some of
 * them generate. Each schedule is written from the generator's documentation or generated source (none is
 * installed), with a seeded draw. A schedule gets the retry number (0 for the first retry) and returns ms.
 */

/**
 * urllib3 2.x `Retry(backoff_factor=f, backoff_jitter=j)` as openapi-generator's python client passes it to its
 * PoolManager (`configuration.retries`): no sleep before the first retry, then `f * 2^(n)` s plus up to `j` s;
 * a 429's Retry-After is slept instead (`respect_retry_after_header`, for 413, 429 and 503).
 */
export const urllib3Retry = (f: number, j: number, random: () => number) => (n: number, r: Reply) =>
  r.status === 429 && r.retryAfterMs > 0
    ? r.retryAfterMs
    : n === 0
      ? 0
      : Math.round((f * 2 ** n + random() * j) * 1_000);

/**
 * axios-retry 4.x `exponentialDelay(retryNumber, error, delayFactor = 100)` as an Orval mutator's axios
 * instance uses it: the larger of `2^retryNumber * 100` ms (retryNumber from 1) and the Retry-After, plus
 * 0-20 % of it.
 */
export const axiosRetryExponential = (random: () => number) => (n: number, r: Reply) => {
  const delay = Math.max(2 ** (n + 1) * 100, r.retryAfterMs);
  return Math.round(delay + delay * 0.2 * random());
};

/**
 * Speakeasy's `retryBackoff` (TypeScript `lib/retries.ts`) with the documented backoff config (initialInterval
 * 500, maxInterval 60000, exponent 1.5): a Retry-After when the response has one, else
 * `initialInterval * x^exponent + random * 1000` ms with x the retries so far, capped at maxInterval. No count of
 * attempts: only `maxElapsedTime` ends it.
 */
export const speakeasyBackoff = (random: () => number) => (n: number, r: Reply) =>
  r.retryAfterMs > 0 ? r.retryAfterMs : Math.min(Math.round(500 * n ** 1.5 + random() * 1_000), 60_000);

/**
 * Fern's TypeScript `requestWithRetries` (maxRetries 2): `min(1000 * 2^n, 60000)` ms with ±20 % jitter. `honours`:
 * the later generated core, which takes a Retry-After first; the earlier one never reads it.
 */
export const fernTs = (random: () => number, honours: boolean) => (n: number, r: Reply) =>
  honours && r.retryAfterMs > 0
    ? r.retryAfterMs
    : Math.round(Math.min(1_000 * 2 ** n, 60_000) * (1 + (random() * 2 - 1) * 0.2));

/**
 * Fern's Python `HttpClient._retry_timeout`: a Retry-After of at most 10 s, else `min(0.5 * 2^n, 10)` s times
 * `1 - 0.25 * random`. Its `_should_retry` takes 408, 409, 429 and every 5xx.
 */
export const fernPython = (random: () => number) => (n: number, r: Reply) =>
  r.retryAfterMs > 0 && r.retryAfterMs <= 10_000
    ? r.retryAfterMs
    : Math.round(Math.min(500 * 2 ** n, 10_000) * (1 - 0.25 * random()));

/**
 * The `_should_retry` of Stainless's and Fern's Python SDKs (Fern's copies Stainless's): `status >= 500 or status in
 * [408, 409, 429]`, and no answer (a connection error or timeout).
 */
export const pythonSdkRetries = (r: Reply) => r.status === 0 || r.status >= 500 || [408, 409, 429].includes(r.status);

/** Polly `WaitAndRetryAsync(n, attempt => TimeSpan.FromSeconds(Math.Pow(2, attempt)))`, attempt from 1: 2, 4, 8 s. */
export const pollyPow2 = (n: number) => 1_000 * 2 ** (n + 1);

/** A Stainless SDK's default key, `stainless-node-retry-<uuid4>`, drawn once per method call. */
export function stainlessKey(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
  return `stainless-node-retry-${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/** A .NET `Guid.NewGuid()` / Go `uuid.NewString()` from a seeded draw (inside the Limits' key pattern). */
export function guid(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20)}`;
}
