/**
 * Round 18 writes clients of pipelines, event routers, queues and proxies no earlier round used: Vector and
 * Fluent Bit outputs, Redpanda Connect (Benthos), Argo Events sensors, Knative eventing, HAProxy Lua, Nginx
 * njs, Azure Durable Functions, Cloudflare Queues, Deno KV queues, NATS JetStream, Pulsar, EventBridge API
 * destinations, Hasura event triggers, APScheduler, Celery beat, Drupal queues, Shopify apps. Each schedule is
 * written from its documentation (none is installed), with a seeded draw. A schedule gets the retry number
 * (0 for the first retry) and returns ms.
 */

const fibonacci = (n: number) => {
  let [a, b] = [1, 1];
  for (let i = 0; i < n; i++) [a, b] = [b, a + b];
  return a;
};

/**
 * Vector's http sink: `retry_initial_backoff_secs = 1` grown as a Fibonacci sequence (1, 1, 2, 3, 5 s),
 * capped by `retry_max_duration_secs`; `retry_jitter_mode = "Full"` (the default) draws in [0, delay].
 */
export const vectorFull = (random: () => number) => (n: number) => Math.round(random() * fibonacci(n) * 1_000);

/** The same with `retry_jitter_mode = "None"`: 1 s, 1 s, 2 s, every time. */
export const vectorNone = (n: number) => fibonacci(n) * 1_000;

/**
 * Fluent Bit's scheduler (`scheduler.base 1`, `scheduler.cap 30`): a retry r (1-based) waits a draw between
 * base and min(cap, base * 2^r) seconds.
 */
export const fluentBit = (random: () => number) => (n: number) => {
  const high = Math.min(30, 2 ** (n + 1));
  return Math.round((1 + random() * (high - 1)) * 1_000);
};

/**
 * Argo Events sensor trigger `retryStrategy: {steps: 3, duration: 1s, factor: 2, jitter: 0.2}`
 * (apimachinery's wait.Backoff): duration * factor^n plus a draw up to jitter * that.
 */
export const argoEvents = (random: () => number) => (n: number) => {
  const base = 1_000 * 2 ** n;
  return Math.round(base + random() * 0.2 * base);
};

/** Knative delivery `backoffPolicy: exponential, backoffDelay: PT0.5S`: 0.5 s * 2^n, no draw. */
export const knativeExponential = (n: number) => 500 * 2 ** n;

/** Knative delivery `backoffPolicy: linear, backoffDelay: PT0.5S`: 0.5 s * (n + 1). */
export const knativeLinear = (n: number) => 500 * (n + 1);

/** A HAProxy Lua action: `core.msleep(500 * 2 ^ n + math.random(0, 250))`, the interface's sample. */
export const haproxyLua = (random: () => number) => (n: number) => 500 * 2 ** n + Math.floor(random() * 251);

/**
 * Redpanda Connect (Benthos) `http_client` with `retry_period: 1s`, `max_retry_backoff: 300s`: an exponential
 * backoff of multiplier 1.5 and randomization factor 0.5 around 1 s * 1.5^n.
 */
export const benthos = (random: () => number) => (n: number) => Math.round(1_000 * 1.5 ** n * (0.5 + random()));

/** Cloudflare Queues consumer: `message.retry({ delaySeconds: 2 ** message.attempts })` (attempts from 1). */
export const cloudflareQueue = (n: number) => 2 ** (n + 1) * 1_000;

/** Deno KV `kv.enqueue(msg, { backoffSchedule: [1000, 5000, 10000] })`: a fixed, growing schedule. */
export const denoKvSchedule = (n: number) => [1_000, 5_000, 10_000][n] ?? 10_000;

/** NATS JetStream consumer `BackOff: [1s, 5s, 30s]`, a nak's delay raised to a 429's Retry-After. */
export const jetStream = (n: number, r: { retryAfterMs: number }) =>
  Math.max([1_000, 5_000, 30_000][n] ?? 30_000, r.retryAfterMs);

/** Pulsar `MultiplierRedeliveryBackoff(minDelayMs 1000, maxDelayMs 60000, multiplier 2)` on negative acks. */
export const pulsarNack = (n: number) => Math.min(1_000 * 2 ** n, 60_000);

/**
 * EventBridge API destinations: exponential backoff with jitter for up to 24 h and 185 retries; written
 * here as 1 s * 2^n drawn in [0.5, 1.5) of that.
 */
export const eventBridge = (random: () => number) => (n: number) => Math.round(1_000 * 2 ** n * (0.5 + random()));

/** Celery `retry_backoff=True, retry_jitter=True`: a countdown drawn in [0, 2^n] s (full jitter). */
export const celeryBackoff = (random: () => number) => (n: number) => Math.round(random() * 2 ** (n + 1) * 1_000);
