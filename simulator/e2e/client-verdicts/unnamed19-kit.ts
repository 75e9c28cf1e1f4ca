/**
 * Round 19 writes clients of job queues, HTTP stacks and connector kits no earlier round used: cockatiel,
 * graphile-worker, asynq, rq, pg-boss, gojek's heimdall, Hatchet, River, Pub/Sub push subscriptions, NestJS
 * with rxjs `retry`, fetch-retry, superagent, Odoo crons, Airbyte's low-code connectors, Qt, Alamofire,
 * Crossplane provider-http, Okta SDKs, Go's oauth2.StaticTokenSource, Next.js, openapi-generator, Axum,
 * ASP.NET. Each schedule is written from its documentation (none is installed), with a seeded draw. A
 * schedule gets the retry number (0 for the first retry) and returns ms.
 */

/**
 * cockatiel `ExponentialBackoff` (its default generator is decorrelated jitter, initialDelay 128 ms,
 * exponent 2, maxDelay 30 s): each delay drawn from the previous one, so it grows on average.
 */
export const cockatielDecorrelated = (random: () => number) => {
  let previous = 128;
  return (n: number) => {
    if (n === 0) previous = 128;
    previous = Math.min(30_000, Math.round(128 * 2 ** (n + 1) * (0.5 + random())));
    return previous;
  };
};

/** graphile-worker: a failed job runs again after exp(min(attempts, 10)) seconds (2.7 s, 7.4 s, 20 s). */
export const graphileWorker = (n: number) => Math.round(Math.exp(Math.min(n + 1, 10)) * 1_000);

/** asynq's DefaultRetryDelayFunc: n^4 + 15 + rand(30) * (n + 1) seconds (n from 0). */
export const asynqDelay = (random: () => number) => (n: number) =>
  (n ** 4 + 15 + Math.floor(random() * 30) * (n + 1)) * 1_000;

/** rq `Retry(max=3, interval=[10, 30, 60])`: a fixed, growing schedule. */
export const rqIntervals = (n: number) => [10_000, 30_000, 60_000][n] ?? 60_000;

/** pg-boss `retryBackoff: true, retryDelay: 1`: retryDelay * 2^n seconds with a jitter of up to half of it. */
export const pgBoss = (random: () => number) => (n: number) => Math.round(1_000 * 2 ** n * (1 + random() * 0.5));

/** heimdall `NewExponentialBackoff(500 ms, 10 s, 2.0, 250 ms)`: 500 ms * 2^n (capped) plus up to 250 ms. */
export const heimdall = (random: () => number) => (n: number) =>
  Math.min(500 * 2 ** n, 10_000) + Math.floor(random() * 250);

/** Airbyte low-code `ExponentialBackoffStrategy(factor: 5)`: 5 s * 2^n. */
export const airbyteExponential = (n: number) => 5_000 * 2 ** n;

/** Alamofire `RetryPolicy(retryLimit: 2, exponentialBackoffBase: 2, exponentialBackoffScale: 0.5)`: no jitter. */
export const alamofire = (n: number) => 2 ** (n + 1) * 500;

/** A Qt daemon's QTimer retry: 1 s * 2^n plus QRandomGenerator::bounded(250) ms. */
export const qtTimer = (random: () => number) => (n: number) => 1_000 * 2 ** n + Math.floor(random() * 250);

/** Pub/Sub push subscription `retryPolicy {minimumBackoff: 10s, maximumBackoff: 600s}`: 10 s * 2^n. */
export const pubSubPush = (n: number) => Math.min(10_000 * 2 ** n, 600_000);

/** Hatchet step `retries=3, backoff_factor=2.0, backoff_max_seconds=60`: 1 s * 2^n, capped. */
export const hatchet = (n: number) => Math.min(1_000 * 2 ** n, 60_000);
