import { sleepOn, type Target } from '../harness.ts';
import type { Auth, Reply } from './unnamed-kit.ts';
import { readStream } from './unnamed-kit.ts';

/**
 * Round 12 writes clients of stacks no earlier round used: C++ cpr loops, Ruby Net::HTTP by hand, OkHttp
 * interceptors, Dart's `retry` package, Scala cats-retry, R httr2, Julia HTTP.jl, Symfony's
 * RetryableHttpClient, OpenResty, Google Apps Script, Kafka Connect's HTTP sink, n8n, Zapier autoreplay,
 * MuleSoft, Power Automate, Terraform's `retry.RetryContext`. Each schedule is written from the library's
 * documentation or source (none is installed), with a seeded draw. A schedule gets the retry number (0
 * for the first) and returns ms.
 */

/** A hand-written C++ cpr loop: `std::chrono::milliseconds(500 << n) + uniform_int_distribution(0, 300)`. */
export const cprLoop = (random: () => number) => (n: number) => 500 * 2 ** n + Math.floor(random() * 301);

/** A hand-rolled Ruby Net::HTTP loop: `sleep(0.5 * 2**retries + rand * 0.5)` (retries from 0). */
export const rubyHandRolled = (random: () => number) => (n: number) => Math.round(500 * 2 ** n + random() * 500);

/** An OkHttp application interceptor: `1 s * 2^n` moved by up to ±20 %, Retry-After as a floor. */
export const okHttpInterceptor = (random: () => number) => (n: number, r: Reply) =>
  Math.max(Math.round(1_000 * 2 ** n * (0.8 + random() * 0.4)), r.retryAfterMs);

/**
 * Dart `package:retry` `RetryOptions` (delayFactor 200 ms, randomizationFactor 0.25, maxDelay 30 s):
 * `delay(attempt) = 200 ms * 2^attempt * (1 ± 0.25)`, attempt counted from 1 for the first retry.
 */
export const dartRetry = (random: () => number) => (n: number) =>
  Math.min(Math.round(200 * 2 ** (n + 1) * (1 + 0.25 * (random() * 2 - 1))), 30_000);

/** cats-retry `RetryPolicies.fullJitter(500.millis)`: a draw in `[0, 500 ms * 2^n)`. */
export const catsFullJitter = (random: () => number) => (n: number) => Math.round(random() * 500 * 2 ** n);

/**
 * R httr2 `req_retry(max_tries = 4)`'s default backoff: `round(min(runif(1, 1, 2^i), 60), 1)` s, i from 1;
 * a 429's or 503's Retry-After instead when sent.
 */
export const httr2Backoff = (random: () => number) => (n: number, r: Reply) =>
  r.retryAfterMs > 0 ? r.retryAfterMs : Math.round(Math.min(1 + random() * (2 ** (n + 1) - 1), 60) * 10) * 100;

/** Julia HTTP.jl's default `ExponentialBackOff(n = 4, first_delay = 0.05, factor = 3, jitter = 0.1)`. */
export const juliaBackoff = (random: () => number) => (n: number) =>
  Math.round(50 * 3 ** n * (1 + 0.1 * (random() * 2 - 1)));

/**
 * Symfony `GenericRetryStrategy` (delay 1000 ms, multiplier 2, jitter 0.1, max_retries 3): `1000 * 2^n`
 * moved by up to ±10 %; a Retry-After header instead when the answer has one.
 */
export const symfonyGeneric = (random: () => number) => (n: number, r: Reply) =>
  r.retryAfterMs > 0 ? r.retryAfterMs : Math.round(1_000 * 2 ** n * (1 + 0.1 * (random() * 2 - 1)));

/** OpenResty with `ngx.sleep(0.5 * 2^n + math.random() * 0.25)`: the interface's guidance, in Lua. */
export const openResty = (random: () => number) => (n: number) => Math.round(500 * 2 ** n + random() * 250);

/** Google Apps Script's documented backoff: `Math.pow(2, n) * 1000 + Math.round(Math.random() * 1000)`. */
export const appsScript = (random: () => number) => (n: number) => 2 ** n * 1_000 + Math.round(random() * 1_000);

/** Kafka Connect HTTP sink `retry.backoff.policy=exponential-with-jitter`, `retry.backoff.ms=1000`. */
export const kafkaSinkJitter = (random: () => number) => (n: number) => Math.round(1_000 * 2 ** n * (0.5 + random()));

/**
 * Terraform plugin SDK `retry.RetryContext`'s refresh wait (StateChangeConf, MinTimeout 500 ms):
 * 100 ms doubled before each wait, at least 500 ms, at most 10 s: 500, 1000, 2000, 4000, 8000, 10000...
 */
export const terraformRefresh = (n: number) => Math.min(Math.max(100 * 2 ** (n + 1), 500 * 2 ** n), 10_000);

/** Power Automate's default exponential policy (interval PT7S, ±20 %): `7 s * 2^n` drawn in [0.8, 1.2]. */
export const powerAutomate = (random: () => number) => (n: number) =>
  Math.max(5_000, Math.round(7_000 * 2 ** n * (0.8 + random() * 0.4)));

/**
 * A stream consumer whose idle timeout is shorter than the heartbeat interval: it reads until quiet
 * (10 s after the last message), then reconnects, `rounds` times; `resume` says which cursor it sends
 * after reading `last` (none when undefined). Between rounds `between` ms pass on the sandbox clock.
 */
export async function heartbeatReconnects(
  t: Target,
  a: Auth,
  o: {
    rounds: number;
    /** The idle timeout on the sandbox clock (default 10 s); 0: it closes at once, within the burst. */
    idleSandboxMs?: number;
    perRound: number;
    between: (ms: number) => Promise<void>;
    resume: (last?: number) => number | undefined;
  },
): Promise<number[]> {
  const seen: number[] = [];
  for (let round = 0; round < o.rounds; round++) {
    const cursor = round === 0 ? undefined : o.resume(seen.at(-1));
    const ids = await readStream(t, a, {
      ...(cursor === undefined ? {} : { cursor }),
      idleMs: 400,
      onOpen: () => {
        for (let i = 0; i < o.perRound; i++)
          t.sandbox.control.trigger({ event: i % 2 ? 'order.paid' : 'order.created', tenant: a.tenant });
        // The consumer's idle timeout (10 s on the sandbox clock) passes before it closes: the close is
        // its timeout, well after the last message, not the cut of a batch it was still receiving.
        if ((o.idleSandboxMs ?? 10_000) > 0) void sleepOn(t, o.idleSandboxMs ?? 10_000);
      },
    });
    seen.push(...ids);
    await o.between(15_000);
  }
  return seen;
}
