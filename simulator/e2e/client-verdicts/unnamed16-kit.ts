/**
 * Round 16 writes clients of stacks no earlier round used: Nim's std/httpclient, Elixir Tesla's
 * Retry middleware, Azure Logic Apps retry policies, Google Workflows' `http.default_retry`, PowerShell's
 * Invoke-RestMethod, Ansible's `uri` module, Ballerina's http:Client retryConfig, Swift URLSession on
 * Linux, Rust ureq, Nushell. Each schedule is written from its documentation (none is installed), with a
 * seeded draw. A schedule gets the retry number (0 for the first retry) and returns ms.
 */

/**
 * Elixir `Tesla.Middleware.Retry` (`delay: 500, max_retries: 3, max_delay: 4_000, jitter_factor: 0.2`):
 * `backoff = min(delay <<< retries, max_delay)`, then `backoff - trunc(:rand.uniform() * jitter_factor * backoff)`.
 * It never reads Retry-After.
 */
export const teslaRetry =
  (random: () => number, o = { delayMs: 500, maxDelayMs: 4_000, jitter: 0.2 }) =>
  (n: number) => {
    const backoff = Math.min(o.delayMs * 2 ** n, o.maxDelayMs);
    return backoff - Math.trunc(random() * o.jitter * backoff);
  };

/**
 * Azure Logic Apps "exponential interval" retry policy: retry n + 1 waits a draw in
 * `[min(interval * 2^(n-1), max), min(interval * 2^n, max)]`, the first in `[minimumInterval, interval]`.
 * Its default: count 4, interval 7.5 s, minimum 5 s. Logic Apps waits a 429's Retry-After instead.
 */
export const logicAppsExponential =
  (random: () => number, o = { intervalMs: 7_500, minMs: 5_000, maxMs: 3_600_000 }) =>
  (n: number, r: { retryAfterMs: number }) => {
    if (r.retryAfterMs > 0) return r.retryAfterMs;
    const low = n === 0 ? o.minMs : Math.min(o.intervalMs * 2 ** (n - 1), o.maxMs);
    const high = Math.min(o.intervalMs * 2 ** n, o.maxMs);
    return Math.round(low + random() * (high - low));
  };

/**
 * Google Workflows `http.Retry` backoff: `initial_delay * multiplier^n`, capped at `max_delay`, no draw.
 * `http.default_retry`: max_retries 5, initial 1 s, max 60 s, multiplier 1.25.
 */
export const workflowsBackoff =
  (o = { initialMs: 1_000, maxMs: 60_000, multiplier: 1.25 }) =>
  (n: number) =>
    Math.round(Math.min(o.maxMs, o.initialMs * o.multiplier ** n));

/** Ballerina `retryConfig { interval: 0.5, backOffFactor: 2.0, maxWaitInterval: 8 }`: no draw at all. */
export const ballerinaRetry = (n: number) => Math.min(8_000, 500 * 2 ** n);

/** A Nushell loop: `sleep (1sec * (2 ** $i) + (random int 0..500) * 1ms)`. */
export const nushell = (random: () => number) => (n: number) => 1_000 * 2 ** n + Math.floor(random() * 501);

/** Rust ureq by hand with `fastrand`: full jitter under a doubling cap from 1 s (`fastrand::u64(0..cap)`). */
export const ureqFullJitter = (random: () => number) => (n: number) =>
  Math.floor(random() * Math.min(16_000, 1_000 * 2 ** (n + 1)));

/** Nim `sleepAsync(500 * (1 shl n) + rand(250))`: the interface's sample schedule. */
export const nimSample = (random: () => number) => (n: number) => 500 * 2 ** n + Math.floor(random() * 251);
