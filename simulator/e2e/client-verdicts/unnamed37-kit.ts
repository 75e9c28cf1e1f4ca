import type { Target } from '../harness.ts';
import type { Auth, Reply } from './unnamed-kit.ts';
import { as } from './unnamed30-kit.ts';
import { nowOf } from './unnamed33-kit.ts';

/**
 * Round 37 writes clients of stacks no earlier round used: Pony actors on `Timers`, V's `net.http` with
 * `time.sleep`, Janet's `os/sleep`, OpenFaaS's queue-worker retrying async invocations, Wolverine's
 * `RetryWithCooldown`, Brighter's Polly `WaitAndRetry`, Haxe pollers, PureScript `Aff` stream readers, Chapel
 * token tasks; per-tenant token caches of an integrator. Each schedule is written from the documentation (none
 * is installed), with a seeded draw where it draws; it gets the retry number (0 for the first retry) and the
 * failed answer, and returns ms.
 */

/** A Pony actor's `Timer(notify, (500_000_000 << n) + rand.int(250_000_000))` ns, `Rand` seeded per actor. */
export const ponyTimer = (random: () => number) => (n: number) => (500 << n) + Math.floor(random() * 250);

/**
 * V `time.sleep(time.Duration(max(ra, backoff)))`: the larger of the 429's Retry-After (read as seconds,
 * `* time.second`) and `500 * 2^n + rand.intn(250)` ms.
 */
export const vSleep = (random: () => number) => (n: number, r: Reply) =>
  Math.max(r.retryAfterMs, 500 * 2 ** n + Math.floor(random() * 250));

/** The same V loop with Retry-After multiplied by `time.millisecond`: 2 s read as 2 ms, the backoff wins. */
export const vSleepMs = (random: () => number) => (n: number, r: Reply) =>
  Math.max(r.retryAfterMs / 1_000, 500 * 2 ** n + Math.floor(random() * 250));

/** Janet `(os/sleep (+ (* 0.5 (math/pow 2 n)) (* 0.25 (math/random))))`: seconds as a float. */
export const janetSleep = (random: () => number) => (n: number) => Math.round((0.5 * 2 ** n + 0.25 * random()) * 1_000);

/**
 * OpenFaaS queue-worker retries of an async invocation answered 429/502/503/504 (`initial_retry_wait 10s`,
 * `max_retry_wait 120s`): the wait doubles from 10 s, capped. `max_retry_attempts` defaults to 10.
 */
export const openFaasWait = (n: number) => Math.min(10_000 * 2 ** n, 120_000);
export const OPENFAAS_DEFAULT_RETRIES = 10;

/** Wolverine's documented `RetryWithCooldown(100.Milliseconds(), 250.Milliseconds(), 500.Milliseconds())`. */
export const wolverineCooldown = (n: number) => [100, 250, 500][n] ?? 500;

/** Polly.Contrib's `Backoff.DecorrelatedJitterBackoffV2(medianFirstRetryDelay 500 ms, retryCount 3)`, drawn once per policy. */
export function decorrelatedV2(random: () => number, count = 3): (n: number) => number {
  // The contrib's formula: t = n + rand; next = 2^t * tanh(sqrt(4 t)); delay = (next - prev) * median / 1.4.
  const out: number[] = [];
  let prev = 0;
  for (let n = 0; n < count; n++) {
    const x = n + random();
    const next = 2 ** x * Math.tanh(Math.sqrt(4 * x));
    out.push(Math.round(((next - prev) * 500) / 1.4));
    prev = next;
  }
  return (n) => out[n] ?? 0;
}

/**
 * An integrator's token cache keyed by tenant: `isFresh(entry)` decides reuse. The honest check renews once
 * fewer than `leftS` seconds are left; the slip of round 37 compares what is left with 90 % of the lifetime
 * (`remaining > ttl * 0.9`, meant as "renew at 90 %"), so an entry is stale a minute after it was taken.
 */
export function perTenantTokens(t: Target, ttlS: number, isFresh: (leftMs: number) => boolean) {
  const cache = new Map<string, { a: Auth; until: number }>();
  return (tenant: string): Auth => {
    const hit = cache.get(tenant);
    if (hit && isFresh(hit.until - nowOf(t))) return hit.a;
    const a = as(t, tenant, ttlS);
    cache.set(tenant, { a, until: nowOf(t) + ttlS * 1_000 });
    return a;
  };
}

/** A capability check's body (a POST that changes nothing and takes no key). */
export const CHECK = { connectorId: 'tillcraft-pos-cloud', capability: 'orders.read' };
