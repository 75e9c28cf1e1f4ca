import { CURRENT_VERSION } from '../../contract/versions.ts';
import type { Target } from '../harness.ts';
import type { Auth, Reply } from './unnamed-kit.ts';

/**
 * Round 9 writes clients of stacks and runners no earlier round used (go-retryablehttp's
 * LinearJitterBackoff, PHP Guzzle's retry middleware, Deno with p-retry, Envoy's retry policy, curl's
 * `--retry`, Temporal's NextRetryDelay, SQS visibility back-off, Azure Logic Apps, Ansible, Rust's
 * `backoff` crate, sethvargo/go-retry). Each schedule is written from the tool's documentation or
 * source (none is installed), with a seeded draw for its randomness. A schedule gets the retry number
 * (0 for the first retry unless said otherwise) and returns the sleep in ms.
 */

/**
 * hashicorp/go-retryablehttp `LinearJitterBackoff(min, max, attemptNum, resp)`: `(attemptNum + 1) *
 * (min + rand * (max - min))`. It never reads Retry-After (only `DefaultBackoff` does).
 */
export const goLinearJitter = (minMs: number, maxMs: number, random: () => number) => (n: number) =>
  Math.round((n + 1) * (minMs + random() * (maxMs - minMs)));

/** Guzzle `RetryMiddleware::exponentialDelay($retries)`: `2 ** ($retries - 1) * 1000` ms, retries from 1. */
export const guzzleExponentialDelay = (retries: number) => 2 ** (retries - 1) * 1000;

/**
 * p-retry (`retry` module) timeouts: `round(rand * max(minTimeout, 1) * factor ** (attempt - 1))`,
 * capped at maxTimeout, `rand` in [1, 2) when `randomize`, else 1. Defaults: retries 10, factor 2,
 * minTimeout 1 s, randomize false.
 */
export const pRetryTimeout =
  (o: { minTimeoutMs?: number; factor?: number; randomize?: () => number } = {}) =>
  (n: number) =>
    Math.round((o.randomize ? 1 + o.randomize() : 1) * (o.minTimeoutMs ?? 1_000) * (o.factor ?? 2) ** n);

/**
 * Envoy's `JitteredExponentialBackOffStrategy` for route retries: retry k (from 1) sleeps
 * `random % ((2^k - 1) * base)`, capped at max (default base 25 ms, max 10 × base).
 */
export const envoyBackoff =
  (baseMs: number, random: () => number, maxMs = baseMs * 10) =>
  (n: number) =>
    Math.min(Math.floor(random() * (2 ** (n + 1) - 1) * baseMs), maxMs);

/**
 * Envoy's `rate_limited_retry_back_off` with a `retry-after` reset header: `JitteredLowerBoundBackOff`,
 * a draw in [interval, 1.5 × interval).
 */
export const envoyResetHeader = (retryAfterMs: number, random: () => number) =>
  Math.round(retryAfterMs * (1 + random() * 0.5));

/**
 * curl `--retry N` without `--retry-delay`: 1 s, then doubling up to 10 minutes; since 7.66.0 a 429's
 * or 503's Retry-After instead. With `--retry-delay s`, that fixed delay every time.
 */
export const curlRetry = (n: number, r: Reply, fixedMs?: number) =>
  r.retryAfterMs > 0 ? r.retryAfterMs : (fixedMs ?? Math.min(1_000 * 2 ** n, 600_000));

/**
 * Azure Logic Apps' default retry policy for an HTTP action: exponential interval, 4 retries, the
 * interval 7.5 s × 2^n drawn within ±20 %, held between 5 s and 45 s.
 */
export const logicAppsDefault = (n: number, random: () => number) =>
  Math.round(Math.min(45_000, Math.max(5_000, 7_500 * 2 ** n * (0.8 + random() * 0.4))));

/**
 * sethvargo/go-retry `WithJitterPercent(10, NewFibonacci(base))`: base, base, 2·base, 3·base, 5·base …
 * each ± 10 %.
 */
export const goRetryFibonacci = (baseMs: number, random: () => number) => (n: number) => {
  let [a, b] = [baseMs, baseMs];
  for (let i = 0; i < n; i++) [a, b] = [b, a + b];
  return Math.round(a * (0.9 + random() * 0.2));
};

/** Ktor `constantDelay(millis, randomizationMs)`: `millis + random(0..randomizationMs)` every time. */
export const ktorConstant = (millis: number, randomizationMs: number, random: () => number) => () =>
  millis + Math.floor(random() * randomizationMs);

/**
 * An SQS consumer's visibility back-off by `ApproximateReceiveCount` (ChangeMessageVisibility on
 * failure): `baseS * 2^(receiveCount - 1)` plus up to 20 % of it.
 */
export const sqsVisibilityBackoffMs = (receiveCount: number, baseS: number, random: () => number) => {
  const s = baseS * 2 ** (receiveCount - 1);
  return Math.round((s + random() * 0.2 * s) * 1000);
};

/**
 * Rails ActiveJob `retry_on ..., wait: :polynomially_longer` (Rails 7.1): `executions ** 4 +
 * rand * executions ** 4 * jitter + 2` seconds, jitter 0.15 by default; `attempts: 5` by default.
 */
export const activeJobPolynomialMs = (executions: number, random: () => number) =>
  Math.round((executions ** 4 + random() * executions ** 4 * 0.15 + 2) * 1000);

/**
 * gRPC's retry policy (`initialBackoff`, `backoffMultiplier`, `maxBackoff`): attempt n+1 waits
 * `random(0, min(initial × multiplier^n, max))` (full jitter), unless the server sent
 * `grpc-retry-pushback-ms`, which is waited exactly. Retry-After means nothing to it.
 */
export const grpcRetryBackoff =
  (o: { initialMs: number; multiplier: number; maxMs: number; random: () => number }) =>
  (n: number, pushbackMs?: number) =>
    pushbackMs ?? Math.floor(o.random() * Math.min(o.initialMs * o.multiplier ** n, o.maxMs));

/**
 * A keyed create its client may abandon (a proxy's hedge resetting the slower copy): the reply, and
 * `abort()`, which closes the connection before the answer.
 */
export function abortableCreate(t: Target, a: Auth, body: object, key: string) {
  const ctrl = new AbortController();
  const reply: Promise<Reply> = t
    .fetch(`${t.baseUrl}/api/public/v1/connections`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${a.token}`,
        'x-service-tenant': a.tenant,
        'service-version': CURRENT_VERSION,
        'idempotency-key': key,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
      signal: ctrl.signal,
    })
    .then(async (res) => ({ status: res.status, json: await res.json().catch(() => undefined), retryAfterMs: 0 }))
    .catch(() => ({ status: 0, json: undefined, retryAfterMs: 0 }));
  return { reply, abort: () => ctrl.abort() };
}
