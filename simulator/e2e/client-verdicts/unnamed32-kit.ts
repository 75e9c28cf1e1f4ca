import { createHash } from 'node:crypto';
import type { Target } from '../harness.ts';
import type { Reply } from './unnamed-kit.ts';

/**
 * Round 32 writes clients of stacks no earlier round used: Unreal Engine's `FHttpRetrySystem` (with an
 * exponential backoff curve), ESP32 Arduino firmware waking from deep sleep, MicroPython `urequests` on a
 * Pico W, Celery/Kombu's publish `retry_policy` copied onto HTTP calls, Gatling's `tryMax` and `pace`,
 * Retrofit with hand-written OkHttp interceptors, Shoryuken's `retry_intervals`, Grafana Alloy's
 * `prometheus.scrape` cadence, GoodJob cron, Fly Machines run per event, Luigi's scheduler
 * `retry_delay`, Solid Queue recurring tasks, node `lru-cache` as a token cache, Raku Cro. Each schedule
 * is written from the documentation (none is installed), with a seeded draw where it draws; it gets the
 * retry number (0 for the first retry) and returns ms.
 */

/**
 * Unreal `FHttpRetrySystem` with an exponential backoff curve (compounding factor 2, a coefficient drawn
 * in [0.5, 1], at most 60 s): `min(2^(n+1) * rand(0.5, 1), 60)` s; a 429's Retry-After is a floor.
 */
export const unrealBackoff = (random: () => number) => (n: number, r?: Reply) =>
  Math.max(Math.round(Math.min(2 ** (n + 1) * (0.5 + random() * 0.5), 60) * 1_000), r?.retryAfterMs ?? 0);

/** ESP32 Arduino firmware: `delay((1000 << n) + esp_random() % 500)`. */
export const esp32Backoff = (random: () => number) => (n: number) => 1_000 * 2 ** n + Math.floor(random() * 500);

/** MicroPython on a Pico W: `time.sleep(2 ** n)` (no `random` module imported): doubling, no spread. */
export const micropythonSleep = (n: number) => 1_000 * 2 ** n;

/**
 * Celery's default publish `retry_policy` (kombu: `interval_start 0, interval_step 0.2, interval_max 0.2,
 * max_retries 3`) copied onto HTTP calls: `min(start + step * n, max)`: 0, 200, 200 ms.
 */
export const kombuPolicy = (n: number) => Math.min(0 + 200 * n, 200);

/** Gatling `pace(2, 4)` (seconds): each iteration starts 2-4 s after the previous one started. */
export const gatlingPace = (random: () => number) => () => 2_000 + Math.round(random() * 2_000);

/** A hand-written Retrofit/OkHttp `Interceptor`: `Thread.sleep((500L shl n) + Random.nextLong(250))`. */
export const retrofitBackoff = (random: () => number) => (n: number) => 500 * 2 ** n + Math.floor(random() * 250);

/** Shoryuken `retry_intervals: [1, 4, 16]` (seconds): the message's visibility timeout per receive. */
export const shoryukenIntervals = [1_000, 4_000, 16_000];

/** Luigi's scheduler `retry_delay` default: a failed task is run again 900 s later. */
export const luigiRetryDelayMs = 900_000;

/** Grafana Alloy `prometheus.scrape` with `scrape_interval = "15s"`, `scrape_timeout = "10s"`. */
export const alloyScrape = { intervalMs: 15_000, timeoutMs: 10_000 };

/**
 * A key derived from what the request is (`sha256(Authorization + body)`, 16 hex digits), so that it
 * is "the same on every retry" as long as neither changes: the token is part of it.
 */
export const derivedKey = (token: string, body: object) =>
  createHash('sha256')
    .update(`Bearer ${token}|${JSON.stringify(body)}`)
    .digest('hex')
    .slice(0, 16);

/**
 * A token cache that keeps entries `ttlMs` of its own clock: node `lru-cache` takes `ttl` in ms, and
 * the client passes the token answer's `expires_in` (seconds), so a 900 s token lives 900 ms.
 */
export function lruTokenCache(now: () => number, fetch: (tenant: string) => string, ttlMs: number) {
  const entries = new Map<string, { token: string; until: number }>();
  return (tenant: string) => {
    const hit = entries.get(tenant);
    if (hit && hit.until > now()) return hit.token;
    const token = fetch(tenant);
    entries.set(tenant, { token, until: now() + ttlMs });
    return token;
  };
}

/** The sandbox clock in ms. */
export const clockOf = (t: Target) => t.sandbox.state.clock.now();

/** The earlier published Service-Version (the current one is 2026-07-01). */
export const EARLIER_VERSION = '2026-06-12';
