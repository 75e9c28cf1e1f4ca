import { sleepOn, type Target } from '../harness.ts';
import type { Reply } from './unnamed-kit.ts';

/**
 * Round 4 reproduces the retry schedules of widely used client libraries from their documented defaults
 * (none is installed: each schedule is a few lines, written here as the library computes it). A delay
 * function gets the retry number (1 for the first retry) and the failed answer, and returns the sleep in
 * ms, or undefined when the library would not retry. Randomness is a seeded generator, so every run
 * draws the same "random" numbers and a verdict never depends on luck.
 */
export type Policy = (retry: number, r: Reply) => number | undefined;

/** mulberry32: a small seeded generator standing in for Math.random / random.random(). */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const transient = (s: number) => s === 0 || s === 429 || s >= 500;

/**
 * Runs one operation under a library's policy: attempts until it answers something the policy does not
 * retry (or `maxRetries` retries), sleeping on the sandbox clock. `attempt(n)` sends attempt n (0-based).
 */
export async function underPolicy(
  t: Target,
  attempt: (n: number) => Promise<Reply>,
  policy: Policy,
  maxRetries: number,
): Promise<Reply> {
  let r = await attempt(0);
  for (let retry = 1; retry <= maxRetries; retry++) {
    const wait = policy(retry, r);
    if (wait === undefined) return r;
    await sleepOn(t, wait);
    r = await attempt(retry);
  }
  return r;
}

/**
 * Python urllib3 `Retry(backoff_factor, backoff_jitter, status_forcelist, respect_retry_after_header=True)`:
 * no sleep before the first retry, then `backoff_factor * 2 ** (consecutive errors - 1)` plus
 * `random() * backoff_jitter`, capped at backoff_max (120 s); with Retry-After on 413, 429 or 503 it
 * sleeps exactly Retry-After instead. Only `allowed_methods` are retried (default: DELETE, GET, HEAD,
 * OPTIONS, PUT, TRACE — not POST).
 */
export function urllib3(o: { method: string; backoffFactor: number; backoffJitter: number; random: () => number }) {
  const allowed = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PUT', 'TRACE'];
  const forcelist = [0, 429, 500, 502, 503, 504];
  return (retry: number, r: Reply): number | undefined => {
    if (!allowed.includes(o.method) || !forcelist.includes(r.status)) return undefined;
    if ([413, 429, 503].includes(r.status) && r.retryAfterMs > 0) return r.retryAfterMs;
    if (retry <= 1) return 0;
    const backoff = o.backoffFactor * 1000 * 2 ** (retry - 1) + o.random() * o.backoffJitter * 1000;
    return Math.min(120_000, backoff);
  };
}

/**
 * tenacity `wait_exponential(multiplier, max) + wait_random(0, jitter)`: `multiplier * 2 ** (attempt - 1)`
 * seconds (attempt numbers count from 1, so the first retry waits `multiplier`), plus a uniform draw.
 * tenacity never reads Retry-After; which answers are retried is the `retry=` predicate's business.
 */
export function tenacity(o: { multiplier: number; max: number; jitter: number; random: () => number }) {
  return (retry: number) => Math.min(o.max, o.multiplier * 2 ** (retry - 1)) * 1000 + o.random() * o.jitter * 1000;
}

/**
 * hashicorp/go-retryablehttp `DefaultRetryPolicy` + `DefaultBackoff`: retries connection errors, 429 and
 * every 5xx but 501, whatever the method (the request body is rewound and sent again with the same
 * headers); sleeps `RetryWaitMin (1 s) * 2 ** attemptNum` (attemptNum 0 for the first retry), capped at
 * RetryWaitMax (30 s), or exactly Retry-After on a 429 or 503. No jitter. RetryMax defaults to 4.
 */
export const goRetryableHttp: Policy = (retry, r) => {
  if (!(r.status === 0 || r.status === 429 || (r.status >= 500 && r.status !== 501))) return undefined;
  if ((r.status === 429 || r.status === 503) && r.retryAfterMs > 0) return r.retryAfterMs;
  return Math.min(30_000, 1000 * 2 ** (retry - 1));
};

/**
 * resilience4j `IntervalFunction.ofExponentialRandomBackoff(initial, multiplier, randomizationFactor)`:
 * `initial * multiplier ** (attempt - 1)`, then a uniform draw within ± randomizationFactor of it
 * (`min + random * (max - min + 1)`). Defaults of RetryConfig: maxAttempts 3, multiplier 1.5, factor 0.5.
 */
export function resilience4j(o: { initialMs: number; multiplier: number; factor: number; random: () => number }) {
  return (retry: number) => {
    const current = o.initialMs * o.multiplier ** (retry - 1);
    const delta = o.factor * current;
    return Math.floor(current - delta + o.random() * (2 * delta + 1));
  };
}

/**
 * Polly v8 exponential backoff with jitter (`DecorrelatedJitterBackoffV2`, from Polly.Contrib.WaitAndRetry):
 * `t = attempt + random`, `next = 2 ** t * tanh(sqrt(4 * t))`, the delay `(next - prev) / 1.4 * baseDelay`.
 * Stateful per operation: one instance per retry sequence. Attempt counts from 0.
 */
export function pollyDecorrelatedJitterV2(baseDelayMs: number, random: () => number) {
  let prev = 0;
  return (retry: number) => {
    const t = retry - 1 + random();
    const next = 2 ** t * Math.tanh(Math.sqrt(4 * t));
    const delay = (next - prev) * (1 / 1.4) * baseDelayMs;
    prev = next;
    return delay;
  };
}

/**
 * AWS SDK for JavaScript v3, standard retry mode: full jitter `floor(min(20 s, random * 2 ** attempts *
 * base))` with base 100 ms (500 ms for throttling, a 429), the larger of that and Retry-After; and a retry
 * quota: a retry costs 5 tokens (10 after a timeout or dropped connection), a success without a retry
 * gives one back, and with the quota empty nothing is retried (`getDefaultRetryQuota(initialRetryTokens)`;
 * 500 tokens by default). One quota per client, shared by all its operations.
 */
export function awsStandard(o: { initialTokens: number; random: () => number }) {
  let tokens = o.initialTokens;
  return {
    tokens: () => tokens,
    /** A success: the token back (for a retry) or one more (NO_RETRY_INCREMENT). */
    succeeded(retried: boolean) {
      tokens = Math.min(o.initialTokens, tokens + (retried ? 5 : 1));
    },
    policy: ((retry: number, r: Reply) => {
      if (!transient(r.status)) return undefined;
      const cost = r.status === 0 ? 10 : 5;
      if (tokens < cost) return undefined;
      tokens -= cost;
      const base = r.status === 429 ? 500 : 100;
      return Math.max(r.retryAfterMs, Math.floor(Math.min(20_000, o.random() * 2 ** retry * base)));
    }) satisfies Policy,
  };
}

/**
 * google-api-core `Retry` (Python): `if_transient_error` (429, 500, 503, connection errors),
 * `exponential_sleep_generator(initial=1.0, maximum=60.0, multiplier=2.0)` with full jitter
 * (`uniform(0, max_delay)`, max_delay doubling), under a 120 s overall timeout and no attempt limit.
 * It does not read Retry-After.
 */
export function googleApiCore(random: () => number): Policy {
  return (retry, r) => {
    if (![0, 429, 500, 503].includes(r.status)) return undefined;
    return random() * Math.min(60_000, 1000 * 2 ** (retry - 1));
  };
}

/**
 * got's default `calculateDelay`: retries `limit` (2) times for GET, PUT, HEAD, DELETE, OPTIONS, TRACE on
 * 408, 413, 429, 500, 502, 503, 504, 521, 522, 524 (and network errors); Retry-After on a response wins
 * (exactly, unless above maxRetryAfter); else `2 ** (attempt - 1) * 1000 + random * noise (100)`.
 */
export function got(o: { method: string; random: () => number }): Policy {
  const methods = ['GET', 'PUT', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE'];
  const codes = [0, 408, 413, 429, 500, 502, 503, 504, 521, 522, 524];
  return (retry, r) => {
    if (!methods.includes(o.method) || !codes.includes(r.status)) return undefined;
    if (r.retryAfterMs > 0) return r.retryAfterMs;
    return 2 ** (retry - 1) * 1000 + o.random() * 100;
  };
}

/**
 * axios-retry: `retries` 3; `isNetworkOrIdempotentRequestError` (network errors, or 5xx/429 on GET,
 * HEAD, OPTIONS, PUT, DELETE); `retryDelay` noDelay (0) unless given; `exponentialDelay`:
 * `2 ** retryNumber * 100` plus 0-20 % of it; Retry-After wins when longer.
 */
export function axiosRetry(o: { method: string; delay: 'none' | 'exponential'; random: () => number }): Policy {
  const idempotent = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'];
  return (retry, r) => {
    const network = r.status === 0;
    if (!network && !(idempotent.includes(o.method) && (r.status === 429 || r.status >= 500))) return undefined;
    const own = o.delay === 'none' ? 0 : 2 ** retry * 100 * (1 + 0.2 * o.random());
    return Math.max(own, r.retryAfterMs);
  };
}

/**
 * undici `RetryAgent` / `RetryHandler` defaults: maxRetries 5; methods GET, HEAD, OPTIONS, PUT, DELETE,
 * TRACE; status codes 500, 502, 503, 504, 429; `minTimeout (500) * timeoutFactor (2) ** (counter - 1)`
 * capped at maxTimeout (30 s), or Retry-After when sent. No jitter.
 */
export function undiciRetry(method: string): Policy {
  const methods = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE'];
  return (retry, r) => {
    if (!methods.includes(method) || ![0, 429, 500, 502, 503, 504].includes(r.status)) return undefined;
    if (r.retryAfterMs > 0) return Math.min(r.retryAfterMs, 30_000);
    return Math.min(500 * 2 ** (retry - 1), 30_000);
  };
}

/**
 * stripe-node: `maxNetworkRetries` (default 1) on network errors, 409, and 5xx; sleep
 * `min(0.5 * (retries - 1) ** 2, 2) s`, jittered to 50-100 % of itself, never below 0.5 s, raised to
 * Retry-After; a POST gets an Idempotency-Key (`stripe-node-retry-<uuid>`) kept across its retries.
 */
export function stripe(random: () => number): Policy {
  return (retry, r) => {
    if (!(r.status === 0 || r.status === 409 || r.status >= 500)) return undefined;
    let s = Math.min(0.5 * (retry - 1) ** 2, 2);
    s *= 0.5 * (1 + random());
    s = Math.max(0.5, s);
    return Math.max(s * 1000, r.retryAfterMs);
  };
}

/**
 * Azure SDK for JavaScript (`@azure/core-rest-pipeline` default retry policies): the throttling strategy
 * waits exactly the Retry-After of a 429 or 503; the exponential strategy retries network errors, 408
 * and 5xx but 501 and 505, any method (the pipeline sends the same request again), `maxRetries` 3, with
 * "equal jitter": half of `min(retryDelayInMs (1 s) * 2 ** retryCount, 64 s)` fixed, half drawn.
 */
export function azureCore(random: () => number): Policy {
  return (retry, r) => {
    if ((r.status === 429 || r.status === 503) && r.retryAfterMs > 0) return r.retryAfterMs;
    if (!(r.status === 0 || r.status === 408 || (r.status >= 500 && r.status !== 501 && r.status !== 505)))
      return undefined;
    const clamped = Math.min(64_000, 1000 * 2 ** (retry - 1));
    return clamped / 2 + Math.floor(random() * (clamped / 2 + 1));
  };
}

/**
 * An Istio sidecar's default retry policy (Envoy underneath): `attempts: 2` on connect-failure,
 * refused-stream, unavailable, cancelled and retriable status codes (503), after Envoy's fully jittered
 * back-off on a 25 ms base (`random(0, (2^n - 1) * 25 ms)`); the application never sees the first 503.
 */
export async function istioSidecar(t: Target, send: () => Promise<Reply>, random: () => number): Promise<Reply> {
  const r = await send();
  if (r.status !== 503 && r.status !== 0) return r;
  await sleepOn(t, random() * 25);
  return send();
}

/** A version 4 UUID from the seeded generator, as `crypto.randomUUID()` writes one. */
export function uuid(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
