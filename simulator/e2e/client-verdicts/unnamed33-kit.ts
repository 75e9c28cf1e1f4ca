import type { Target } from '../harness.ts';
import { type Auth, auth, type Reply } from './unnamed-kit.ts';

/**
 * Round 33 writes clients of stacks no earlier round used: Elixir HTTPoison with a hand-written retry loop,
 * Agenda (Node) jobs rescheduled from a `fail` handler, Android Volley's `DefaultRetryPolicy`, Unirest-Java's
 * `retryAfter(true, n)`, RabbitMQ Sneakers' Maxretry handler, Python `sseclient` (btubbs), Go `r3labs/sse`,
 * SmallRye Fault Tolerance `@Retry` defaults, supervisord's `startretries`. Each schedule is written from the
 * documentation (none is installed), with a seeded draw where it draws; it gets the retry number (0 for the
 * first retry) and returns ms.
 */

/** HTTPoison has no retry: `:timer.sleep(trunc(:math.pow(2, n) * 1000) + :rand.uniform(500))` by hand. */
export const httpoisonLoop = (random: () => number) => (n: number) => 1_000 * 2 ** n + 1 + Math.floor(random() * 500);

/**
 * Agenda's `fail` handler rescheduling the job by hand: `job.schedule(new Date(Date.now() + 2 ** failCount *
 * 1000 + Math.random() * 1000))`, failCount from 1: 2-3 s, 4-5 s, 8-9 s.
 */
export const agendaReschedule = (random: () => number) => (n: number) => 2_000 * 2 ** n + Math.floor(random() * 1_000);

/** Volley `DefaultRetryPolicy`: 2.5 s timeout, one retry sent at once, the timeout grown by the multiplier. */
export const volleyDefault = { timeoutMs: 2_500, maxNumRetries: 1, backoffMultiplier: 1 };

/** Sneakers `Maxretry` handler defaults: `retry_timeout` 60 s (a fixed dead-letter TTL), `retry_max_times` 5. */
export const sneakersMaxretry = { retryTimeoutMs: 60_000, retryMaxTimes: 5 };

/** Python `sseclient` (btubbs): `self.retry = 3000` ms until the stream's `retry:` field says otherwise. */
export const sseclientRetryMs = 3_000;

/**
 * Go `r3labs/sse` reconnecting on `backoff.NewExponentialBackOff()` (cenkalti: initial 500 ms, multiplier
 * 1.5, randomization 0.5): interval i drawn in [0.5 i, 1.5 i], then i *= 1.5.
 */
export const r3labsBackoff = (random: () => number) => (n: number) => Math.round(500 * 1.5 ** n * (0.5 + random()));

/** SmallRye `@Retry` defaults (`maxRetries 3, delay 0, jitter 200 ms`): a wait drawn in [0, 200] ms, never grown. */
export const smallryeDefault = (random: () => number) => () => Math.round(random() * 200);

/** supervisord `startretries=3`: each restart of a process that exited early waits one second longer. */
export const supervisordRestart = (n: number) => 1_000 * (n + 1);

/**
 * The wait a client takes from a proxy's header (`RateLimit-Reset`, absent here: the service's answer comes
 * through no such proxy), else its own `ownMs`; `honourRetryAfter` adds the 429's Retry-After as a floor.
 */
export const proxyWait = (r: Reply, proxyResetMs: number | undefined, ownMs: number, honourRetryAfter: boolean) =>
  Math.max(proxyResetMs ?? ownMs, honourRetryAfter ? r.retryAfterMs : 0);

/** The sandbox clock in ms. */
export const nowOf = (t: Target) => t.sandbox.state.clock.now();

/**
 * A token cache per tenant treating a token as stale `skewS` seconds before it expires (a skew meant to
 * renew a little early; 840 s of a 900 s token leaves it 60 s of use).
 */
export function skewedCache(t: Target, issue: (tenant: string) => Auth, ttlS: number, skewS: number) {
  const cached = new Map<string, { a: Auth; until: number }>();
  return {
    get(tenant: string): Auth {
      const hit = cached.get(tenant);
      if (hit && hit.until > nowOf(t)) return hit.a;
      const a = issue(tenant);
      cached.set(tenant, { a, until: nowOf(t) + (ttlS - skewS) * 1_000 });
      return a;
    },
    clear: () => cached.clear(),
  };
}

/** One worker's own token (`issue`d), renewed once fewer than `leftS` of its `ttlS` remain. */
export function ownToken(t: Target, ttlS: number, leftS: number, issue = () => auth(t, undefined, ttlS)) {
  let a = issue();
  let until = nowOf(t) + ttlS * 1_000;
  return () => {
    if (until - nowOf(t) < leftS * 1_000) {
      a = issue();
      until = nowOf(t) + ttlS * 1_000;
    }
    return a;
  };
}
