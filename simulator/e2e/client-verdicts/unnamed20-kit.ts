/**
 * Round 20 writes clients of workflow engines, gateways, JVM and Go stacks no earlier round used: Kestra,
 * Netflix Conductor, Azure API Management's `retry` policy, Azure Data Factory, GitHub Actions steps on
 * Octokit's plugins, Excon, Mozilla's `redo`, client-go's `retry.DefaultBackoff`, Traefik's Retry
 * middleware, Node-RED, Nomad, Finagle, Armeria, Helidon, SmallRye, Kiota, go-sse, LaunchDarkly's
 * eventsource client, .NET 9's SseParser, Lambda extensions and SnapStart, SvelteKit. Each schedule is
 * written from its documentation (none is installed), with a seeded draw. A schedule gets the retry number
 * (0 for the first retry) and returns ms.
 */

/** Kestra task `retry: {type: exponential, interval: PT1S, delayFactor: 2, maxAttempt: 4}`: no jitter. */
export const kestraExponential = (n: number) => 1_000 * 2 ** n;

/** Conductor task `retryLogic: EXPONENTIAL_BACKOFF, retryDelaySeconds: 2`: `2 s * 2^retryCount`. */
export const conductorExponential = (n: number) => 2_000 * 2 ** n;

/**
 * Azure API Management `<retry count="3" interval="1" delta="1" max-interval="10">`: exponential,
 * `interval + (2^n - 1) * random(delta * 0.8, delta * 1.2)` s, n counted from 1, capped at max-interval.
 */
export const apimRetry = (random: () => number) => (n: number) =>
  Math.min(10_000, Math.round(1_000 + (2 ** (n + 1) - 1) * 1_000 * (0.8 + random() * 0.4)));

/** @octokit/plugin-retry: `retryAfterBaseValue (1 s) * (retryCount + 1)^2`: 1 s, 4 s, 9 s, no jitter. */
export const octokitRetry = (n: number) => 1_000 * (n + 1) ** 2;

/**
 * Mozilla `redo.retry(action, attempts, sleeptime, sleepscale, jitter)`: sleeps `sleeptime`, moved by
 * `random.randint(-jitter, jitter)` whole seconds, then `sleeptime *= sleepscale`.
 */
export const redo = (o: { sleeptimeS: number; sleepscale: number; jitterS: number }, random: () => number) =>
  function wait(n: number) {
    const offset = Math.floor(random() * (2 * o.jitterS + 1)) - o.jitterS;
    return Math.max(0, Math.round((o.sleeptimeS * o.sleepscale ** n + offset) * 1_000));
  };

/** client-go `retry.DefaultBackoff` ({Steps 4, Duration 10 ms, Factor 5, Jitter 0.1}): `10 * 5^n * (1 + 0.1 r)`. */
export const clientGoDefault = (random: () => number) => (n: number) => Math.round(10 * 5 ** n * (1 + 0.1 * random()));

/** Traefik Retry middleware (`attempts: 4, initialInterval: 100ms`): cenkalti backoff, multiplier 1.5, ±50 %. */
export const traefikRetry = (random: () => number) => (n: number) => Math.round(100 * 1.5 ** n * (0.5 + random()));

/**
 * Finagle `Backoff.exponentialJittered(500 ms, 10 s)`: the first is `start`, each next a draw between
 * `start` and twice the previous, capped. Stateful: one per retry sequence.
 */
export function finagleJittered(random: () => number) {
  let previous = 0;
  return (n: number) => {
    previous = n === 0 ? 500 : Math.min(10_000, Math.round(500 + random() * (2 * previous - 500)));
    return previous;
  };
}

/** Armeria `Backoff.exponential(500, 10_000).withJitter(0.2)`: `500 * 2^n` moved by up to ±20 %. */
export const armeriaJittered = (random: () => number) => (n: number) =>
  Math.round(Math.min(500 * 2 ** n, 10_000) * (1 + (random() * 2 - 1) * 0.2));

/** Helidon `Retry.DelayingRetryPolicy` (delay 200 ms, delayFactor 2): `200 * 2^n`, no jitter. */
export const helidonDelaying = (n: number) => 200 * 2 ** n;

/** Helidon `Retry.JitterRetryPolicy` (delay 200 ms, jitter 50 ms): 200 ms moved by up to ±50 ms, every time. */
export const helidonJitter = (random: () => number) => () => 200 + Math.round((random() * 2 - 1) * 50);

/**
 * SmallRye Fault Tolerance `@Retry(maxRetries = 3, delay = 500, jitter = 200) @ExponentialBackoff(factor = 2)`:
 * `500 * 2^n` moved by up to ±200 ms.
 */
export const smallRyeExponential = (random: () => number) => (n: number) =>
  500 * 2 ** n + Math.round((random() * 2 - 1) * 200);

/** Kiota `RetryHandlerOption` (Delay 3 s, MaxRetry 3): Retry-After when sent, else `3 s * 2^n`. */
export const kiotaRetry = (n: number, r: { retryAfterMs: number }) => r.retryAfterMs || 3_000 * 2 ** n;

/** Node-RED catch + delay node ("random delay" 1-2 s) times 2^n, a counter kept in msg. */
export const nodeRedDelay = (random: () => number) => (n: number) => Math.round((1_000 + random() * 1_000) * 2 ** n);
