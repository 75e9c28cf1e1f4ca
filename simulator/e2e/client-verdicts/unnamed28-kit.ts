import type { SandboxOptions } from '../../app/sandbox-options.ts';
import type { Target } from '../harness.ts';
import { type Auth, auth, fault, publish, type Reply, readStream } from './unnamed-kit.ts';
import { fixturesWithClientForAllTenants } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';

/**
 * Round 28 writes clients of stacks no earlier round used: Go sethgrid/pester and PuerkitoBio/rehttp,
 * imroc/req v3, LangChain's `with_retry`, urql's retryExchange, Dart package:http's RetryClient, DBOS
 * steps, resque-retry, pydantic request models, @microsoft/fetch-event-source and sse.js. Each schedule is
 * written from the library's documentation (none is installed), with a seeded draw; it gets the retry
 * number (0 for the first retry) and returns ms.
 */

/**
 * pester `ExponentialJitterBackoff`: `2^i` s plus `rand.Intn(1000)` ms, i the attempt that failed (from 1),
 * so 2 s, 4 s, 8 s with up to a second drawn on each.
 */
export const pesterJitter = (random: () => number) => (n: number) =>
  1_000 * 2 ** (n + 1) + Math.floor(random() * 1_000);

/** pester's `DefaultBackoff`: one second, every time (no growth, no draw). */
export const pesterDefault = () => 1_000;

/**
 * rehttp `ExpJitterDelay(500ms, 10s)`: a draw in [0, min(10 s, 500 ms * 2^n)); rehttp's delay function
 * sees the attempt, not the answer, so a 429's Retry-After is never read.
 */
export const rehttpExpJitter = (random: () => number) => (n: number) =>
  Math.floor(random() * Math.min(10_000, 500 * 2 ** n));

/**
 * imroc/req v3 `SetCommonRetryBackoffInterval(1s, 5s)`: `temp = min(5 s, 1 s * 2^attempt)` (attempt from 1),
 * `temp / 2 + rand(temp / 2)`, at least 1 s.
 */
export const reqV3Backoff = (random: () => number) => (n: number) => {
  const temp = Math.min(5_000, 1_000 * 2 ** (n + 1));
  return Math.max(1_000, Math.floor(temp / 2 + random() * (temp / 2)));
};

/** LangChain `with_retry(wait_exponential_jitter=True)`: tenacity's `wait_exponential_jitter(initial=1, jitter=1)`. */
export const langchainJitter = (random: () => number) => (n: number) => Math.round(1_000 * 2 ** n + random() * 1_000);

/**
 * urql `retryExchange({ initialDelayMs: 1000, randomDelay: true })`: the delay starts at 1 s and is
 * multiplied by `1.5 + Math.random()` before each retry; `maxNumberAttempts: 2` makes one retry.
 */
export const urqlDelay = (random: () => number) => () => Math.round(1_000 * (1.5 + random()));

/** Dart package:http `RetryClient`'s default delay: `500 ms * 1.5^retryCount`, no draw. */
export const dartRetryDefault = (n: number) => Math.round(500 * 1.5 ** n);

/** A Dart `RetryClient` given `delay: (n) => 500 ms * 1.5^n + rand(200 ms)`. */
export const dartRetryJitter = (random: () => number) => (n: number) => Math.round(500 * 1.5 ** n + random() * 200);

/** A DBOS step `@DBOS.step(retries_allowed=True, interval_seconds=1, backoff_rate=2)`: 1 s, 2 s, no draw. */
export const dbosStep = (n: number) => 1_000 * 2 ** n;

/**
 * resque-retry `ExponentialBackoff` with `@backoff_strategy = [2, 8, 30]` and
 * `@retry_delay_multiplicand_min = 1.0`, `_max = 1.5`: each delay stretched by a draw in [1, 1.5].
 */
export const resqueRetry = (random: () => number) => (n: number) =>
  Math.round(([2, 8, 30][n] ?? 30) * 1_000 * (1 + random() * 0.5));

/** The larger of a 429's Retry-After and the client's own draw (req v3's hook, Dart's `whenError` wrapper). */
export const raFloor = (own: (n: number) => number) => (n: number, r: Reply) => Math.max(r.retryAfterMs, own(n));

/** Retry-After read as milliseconds (`time.Duration(n) * time.Millisecond`): "2" sleeps 2 ms. */
export const retryAfterAsMs = (_n: number, r: Reply) => r.retryAfterMs / 1_000;

/**
 * A stream cut after two messages, then one reconnect after the stream's `retry:` delay (1 s when none)
 * with what `resumeWith` makes of the last id read; two more messages are published once it is open.
 */
export async function cutAndResume(t: Target, resumeWith: (last: number) => { cursor?: number; asQuery?: boolean }) {
  const a = auth(t);
  let retryMs = 1_000;
  fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
  const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 2), onRetry: (ms) => (retryMs = ms) });
  const last = ids.at(-1);
  if (last === undefined) throw new Error('read nothing before the cut');
  await sleeper(t)(retryMs);
  await readStream(t, a, { ...resumeWith(last), idleMs: 500, onOpen: () => publish(t, a.tenant, 2) });
}

/**
 * An integrator's token cache keyed per tenant (one client released for every tenant): each tenant's
 * 5-minute token is replaced once it is `renewAfterS` old; both tenants are read every 20 s for 12 minutes.
 */
export function tenantTokenCache(renewAfterS: number): { options: SandboxOptions; run(t: Target): Promise<void> } {
  const client = 'network-integrator';
  return {
    options: { fixtures: fixturesWithClientForAllTenants(client) },
    async run(t) {
      const cache = new Map<string, { a: Auth; at: number }>();
      const tokenFor = (tenant: string, s: number): Auth => {
        const held = cache.get(tenant);
        if (held && s - held.at < renewAfterS) return held.a;
        const a = { ...t.sandbox.issueToken(client, 300), tenant };
        cache.set(tenant, { a, at: s });
        return a;
      };
      for (let s = 0; s <= 720; s += 20) {
        for (const tenant of ['harbour-kitchens', 'alpine-bistro'])
          ok(tenant, await get(t, tokenFor(tenant, s), '/connections'));
        await sleeper(t)(20_000);
      }
    },
  };
}
