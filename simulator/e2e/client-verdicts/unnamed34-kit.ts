import type { Target } from '../harness.ts';
import { type Auth, api, CONNECTION, type Reply } from './unnamed-kit.ts';
import type { Sleep } from './unnamed5-fleet.ts';
import { get, ok } from './unnamed8-kit.ts';

/**
 * Round 34 writes clients of stacks no earlier round used: Go `go-resty` v2's retry, Ruby `http.rb`'s
 * `.retriable`, Java 21's `java.net.http.HttpClient` with a hand-written loop, a Go `net/http` custom
 * `RoundTripper`, the JavaScript resilience library `mollitia`, PHP-FPM workers, systemd timers. Each
 * schedule is written from the documentation (none is installed), with a seeded draw where it draws; it
 * gets the retry number (0 for the first retry) and returns ms.
 */

/**
 * go-resty v2 defaults (`SetRetryWaitTime` 100 ms, `SetRetryMaxWaitTime` 2 s): `jitterBackoff` takes
 * `temp = min(max, min * 2^attempt)` (attempt from 1), then `temp/2 + rand(temp/2)`, never below min.
 */
export const restyJitter = (random: () => number) => (n: number) => {
  const temp = Math.min(2_000, 100 * 2 ** (n + 1));
  return Math.max(100, Math.round(temp / 2 + random() * (temp / 2)));
};

/**
 * http.rb `.retriable` without `delay:`: iteration i (from 1) waits `2^(i - 1) - 1` s plus `rand` (0-1 s):
 * 0-1 s, 1-2 s, 3-4 s, 7-8 s. Its default `tries` is 5: five attempts.
 */
export const httpRbDelay = (random: () => number) => (n: number) => (2 ** n - 1) * 1_000 + Math.round(random() * 1_000);
export const HTTP_RB_DEFAULT_TRIES = 5;

/** Java 21 by hand: `Thread.sleep(Duration.ofMillis(500L << n).plusMillis(rnd.nextLong(250)))`: the guidance. */
export const java21Loop = (random: () => number) => (n: number) => (500 << n) + Math.floor(random() * 250);

/**
 * Java 21 reading `response.headers().firstValueAsLong("retry-after")` and passing it to `Thread.sleep(long)`,
 * which takes milliseconds: a Retry-After of 2 sleeps 2 ms.
 */
export const retryAfterAsMillis = (_n: number, r: Reply) => r.retryAfterMs / 1_000;

/** The same header through `Duration.ofSeconds(...)` before sleeping: what Retry-After says. */
export const retryAfterAsSeconds = (_n: number, r: Reply) => r.retryAfterMs;

/** A Go `RoundTripper` retrying 5xx by hand: `250ms << n` plus `rand.Int63n(250ms)`. */
export const roundTripperWait = (random: () => number) => (n: number) => (250 << n) + Math.floor(random() * 250);

/** mollitia `Retry` in `RetryMode.JITTER` (interval 500 ms, factor 2, jitterAdjustment 0.1): `500 * 2^n` ±10 %. */
export const mollitiaJitter = (random: () => number) => (n: number) =>
  Math.round(500 * 2 ** n * (1 + (random() * 2 - 1) * 0.1));

/** mollitia `Retry` in `RetryMode.CONSTANT` with `interval: 1000`: the same second every time. */
export const mollitiaConstant = () => 1_000;

/** The sandbox clock in ms. */
export const clockOf = (t: Target) => t.sandbox.state.clock.now();

/**
 * A process started per run (`run` times, `gaps[i]` ms before run i + 1), each taking a token of its own
 * (15 min) and making one read: a scheduler's jobs, or a worker recycled after each request.
 */
export async function runsWithOwnToken(t: Target, sleep: Sleep, gaps: number[], path = '/connectors') {
  const once = async () => ok(path, await get(t, t.sandbox.issueToken(undefined, 900), path));
  await once();
  for (const gap of gaps) {
    await sleep(gap);
    await once();
  }
}

/** A create refused 400 for its content (a one-character scopeLabel), with `key`. */
export const invalidCreate = (t: Target, a: Auth, key: string) =>
  api(t, a, 'POST', '/connections', { body: { ...CONNECTION, scopeLabel: 'Q' }, key });

/**
 * Opens the tenant's stream with Authorization but no Service-Version (a bare SSE library given only an
 * auth header) and reads until `idleMs` of silence or the end: the status.
 */
export async function streamWithoutVersion(t: Target, a: Auth, idleMs = 400): Promise<number> {
  const res = await t.fetch(`${t.baseUrl}/api/public/v1/stream`, {
    headers: { authorization: `Bearer ${a.token}`, 'x-service-tenant': a.tenant },
  });
  const reader = res.body?.getReader();
  const stop = setTimeout(() => void reader?.cancel().catch(() => undefined), idleMs);
  while (reader) {
    const { done } = await reader.read().catch(() => ({ done: true as const }));
    if (done) break;
  }
  clearTimeout(stop);
  return res.status;
}
