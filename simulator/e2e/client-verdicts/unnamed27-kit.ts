/**
 * Round 27 writes clients of stacks no earlier round used: Rust reqwest-retry and tokio-retry, failsafe-go,
 * Symfony's RetryableHttpClient, httpx-retries, Prefect task retries, Rails ActiveJob `retry_on`, wretch's
 * retry middleware, swift-retry, Bottleneck's `failed` handler, gcanti's retry-ts. Each schedule is written
 * from the library's documentation (none is installed), with a seeded draw; it gets the retry number (0 for
 * the first retry) and returns ms.
 */

/** reqwest-retry `ExponentialBackoff::builder().retry_bounds(500ms, 30s)` with `Jitter::Bounded`: `500 * 2^n` drawn in [1x, 2x). */
export const reqwestRetry = (random: () => number) => (n: number) =>
  Math.round(Math.min(500 * 2 ** n * (1 + random()), 30_000));

/** failsafe-go `RetryPolicy.WithBackoff(500ms, 10s).WithJitter(250ms)`: `500 * 2^n` moved by up to ±250 ms. */
export const failsafeGo = (random: () => number) => (n: number) =>
  Math.round(Math.min(500 * 2 ** n, 10_000) + (random() * 2 - 1) * 250);

/** tokio-retry `ExponentialBackoff::from_millis(2).factor(250).map(jitter)`: `250 * 2^(n+1)` times a draw in [0, 1). */
export const tokioRetry = (random: () => number) => (n: number) => Math.round(250 * 2 ** (n + 1) * random());

/** Symfony `GenericRetryStrategy(delayMs: 1000, multiplier: 2.0, jitter: 0.1)`: `1000 * 2^n` moved by up to ±10 %. */
export const symfonyRetry = (random: () => number) => (n: number) =>
  Math.round(1_000 * 2 ** n * (1 + (random() * 2 - 1) * 0.1));

/** httpx-retries `Retry(total=3, backoff_factor=0.5, backoff_jitter=1.0)`: `0.5 * 2^n` s plus uniform(0, 1 s). */
export const httpxRetries = (random: () => number) => (n: number) => Math.round(500 * 2 ** n + random() * 1_000);

/** Prefect `retry_delay_seconds=exponential_backoff(backoff_factor=2)`, `retry_jitter_factor=0.5`: `2^(n+1)` s plus up to half of it. */
export const prefectBackoff = (random: () => number) => (n: number) =>
  Math.round(1_000 * 2 ** (n + 1) * (1 + random() * 0.5));

/** ActiveJob `retry_on ..., wait: :polynomially_longer` (jitter 0.15): `executions^4 + 2` s plus up to 15 %. */
export const activeJobPolynomial = (random: () => number) => (n: number) => {
  const base = ((n + 1) ** 4 + 2) * 1_000;
  return Math.round(base + base * 0.15 * random());
};

/** ActiveJob `retry_on ..., wait: 5.seconds` (jitter 0.15): a constant 5 s plus up to 15 %, never growing. */
export const activeJobConstant = (random: () => number) => () => Math.round(5_000 * (1 + 0.15 * random()));

/** wretch `retry({ delayTimer: 500, delayRamp: (d, n) => d * n + rand(250) })`: linear growth with a draw. */
export const wretchLinear = (random: () => number) => (n: number) => 500 * (n + 1) + Math.round(random() * 250);

/** swift-retry's default `.exponentialWithFullJitter(baseDelay: 1 s)`: a draw in [0, 1 s * 2^(n+1)). */
export const swiftRetry = (random: () => number) => (n: number) => Math.round(1_000 * 2 ** (n + 1) * random());

/** A Bottleneck `limiter.on('failed')` handler: `500 * 2^retryCount + rand(250)`, or the 429's Retry-After when longer. */
export const bottleneck = (random: () => number) => (n: number, r: { retryAfterMs: number }) =>
  Math.max(r.retryAfterMs, 500 * 2 ** n + Math.round(random() * 250));

/** retry-ts `capDelay(2000, exponentialBackoff(200) <> limitRetries(3))`: 200, 400, 800 ms, no jitter. */
export const retryTs = (n: number) => Math.min(200 * 2 ** n, 2_000);
