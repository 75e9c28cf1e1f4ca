import type { Target } from '../harness.ts';
import { type Auth, api, auth, type Reply } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { now } from './unnamed10-kit.ts';

/**
 * Round 14 writes clients of stacks no earlier round used: Go resty, Ktor's HttpRequestRetry with
 * modifyRequest, httpx with stamina's `on` hook, GitHub Actions `curl --retry`, k6 scripts, hedged reads,
 * Retry-After read as a number or an HTTP date, proactive token refresh, a Durable Object token cache,
 * Camunda/Zeebe workers, Argo retryStrategy, Newman collections, AWS SDK adaptive retry, Hummingbird,
 * Finch, clj-http. Each schedule is written from the library's documentation (none is installed), with a
 * seeded draw. A schedule gets the retry number (0 for the first retry) and returns ms.
 */

/**
 * resty v2's default backoff (`SetRetryWaitTime(500ms)`, `SetRetryMaxWaitTime(5s)`): `temp = min(max,
 * base * 2^attempt)` (attempt from 1), then a draw in [temp / 2, temp): equal jitter.
 */
export const resty = (random: () => number) => (n: number) => {
  const temp = Math.min(5_000, 500 * 2 ** (n + 1));
  return Math.round(temp / 2 + random() * (temp / 2));
};

/** Ktor `exponentialDelay()`: `2^retry * 1000` (retry from 1) capped at 60 s, plus up to 1 s drawn. */
export const ktorHttpRequestRetry = (random: () => number) => (n: number) =>
  Math.min(2 ** (n + 1) * 1_000, 60_000) + Math.floor(random() * 1_000);

/**
 * stamina's wait (`wait_initial 0.5, wait_exp_base 2, wait_jitter 1, wait_max 10`) unless its `on` hook
 * returns a float: the hook returns Retry-After for a 429, which stamina then waits instead.
 */
export const staminaOnHook = (random: () => number) => (n: number, r: Reply) =>
  r.status === 429 && r.retryAfterMs > 0
    ? r.retryAfterMs
    : Math.min(500 * 2 ** n + Math.round(random() * 1_000), 10_000);

/**
 * Retry-After as RFC 9110 allows it, delay-seconds or an HTTP date: digits first, then `Date.parse`, the
 * difference to now; the client's own backoff when neither parses.
 */
export function retryAfterRfc9110(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1_000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * The same header read only as an HTTP date (`Date.parse`, V8's lenient parser): "3" reads as 1 March
 * 2001, long past, so the wait comes out 0.
 */
export const retryAfterAsDateOnly = (header: string | null, nowMs: number) =>
  header === null ? undefined : Math.max(0, Date.parse(header) - nowMs);

/** AWS SDK standard/adaptive retry delay: `random * min(2^attempt * base 1 s... )`, max 20 s, full jitter. */
export const awsFullJitter = (random: () => number) => (n: number) =>
  Math.round(random() * Math.min(1_000 * 2 ** n, 20_000));

/** A GET that keeps the Retry-After header as text (so the client can read it as it likes). */
export async function getRaw(t: Target, a: Auth, path: string): Promise<Reply & { retryAfter: string | null }> {
  const res = await t.fetch(`${t.baseUrl}/api/public/v1${path}`, {
    headers: { authorization: `Bearer ${a.token}`, 'x-service-tenant': a.tenant, 'service-version': '2026-07-01' },
  });
  const json = await res.json().catch(() => undefined);
  const retryAfter = res.headers.get('retry-after');
  return { status: res.status, json, retryAfterMs: Number(retryAfter ?? 0) * 1_000, retryAfter };
}

/**
 * A token cache renewing when `due(issuedAt, expiresAt, now)` says so; `ttlS` seconds on the sandbox
 * clock. Reads every `everyMs` for `minutes`, each path its own query.
 */
export async function cachedTokenReads(
  t: Target,
  o: { ttlS: number; everyMs: number; minutes: number; due: (issued: number, expires: number, at: number) => boolean },
): Promise<void> {
  const sleep = sleeper(t);
  let a = auth(t, undefined, o.ttlS);
  let issued = now(t);
  const paths = ['/providers', '/connectors', '/capabilities', '/connections'];
  for (let i = 0; i < (o.minutes * 60_000) / o.everyMs; i++) {
    if (o.due(issued, issued + o.ttlS * 1_000, now(t))) {
      a = auth(t, undefined, o.ttlS);
      issued = now(t);
    }
    const r = await api(t, a, 'GET', paths[i % paths.length] ?? '/providers');
    if (r.status !== 200) throw new Error(`read ${i}: ${r.status}`);
    await sleep(o.everyMs);
  }
}
