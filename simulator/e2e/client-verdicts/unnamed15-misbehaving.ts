import { auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import { akkaBackoff, denoStdRetry, sample } from './unnamed15-kit.ts';

/**
 * Round 15, misbehaving clients (attempts, Retry-After, schedules, 4xx, keys): each breaks one duty and
 * must fail exactly that rule (or the rules it breaks), with evidence. The sentence broken is quoted above.
 */
export const MISBEHAVING_15: FaultyClient[] = [
  // "A sample client makes up to 4 attempts": Deno std/async retry with its defaults (maxAttempts 5,
  // minTimeout 1 s, multiplier 2, full jitter) reading through four 500s: five attempts.
  {
    does: 'is a Deno service wrapping fetch in std/async retry() with its defaults (maxAttempts 5, full jitter) reading through four 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: denoStdRetry(seeded(1551)), failures: 4, max: 4, ops: 1 });
    },
  },
  // "Retry-After (recommended wait in seconds)": an Erlang client on gun passing
  // binary_to_integer(RetryAfter) to timer:sleep/1, which takes milliseconds: "2" sleeps 2 ms.
  {
    does: 'is an Erlang client on gun passing binary_to_integer(RetryAfter) to timer:sleep/1 (milliseconds), so Retry-After: 2 sleeps 2 ms',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
      const wait = (_n: number, r: { retryAfterMs: number }) => r.retryAfterMs / 1_000;
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), wait, 3));
    },
  },
  // "retry only after rate_limited and internal": OCaml cohttp code matching `if Code.is_success code
  // then ... else retry`, so a read for a tenant the access is not released for (403) is retried.
  {
    does: 'is an OCaml cohttp client retrying every non-success code, so a read refused 403 (tenant not released) is sent three more times',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = { ...auth(t), tenant: 'alpine-bistro' };
      const r = await loop(
        sleeper(t),
        () => get(t, a, '/connections'),
        sample(seeded(1553)),
        3,
        (x) => x.status !== 200,
      );
      if (r.status !== 403) throw new Error(`answered ${r.status}`);
    },
  },
  // "Clients retry with growing intervals": Vert.x CircuitBreaker with maxRetries(3) and no retryPolicy,
  // whose default is no delay at all: three retries at once.
  {
    does: 'is a Vert.x CircuitBreaker with maxRetries(3) and no retryPolicy (no delay), retrying a read through three 500s at once',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 3 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/capabilities'),
          () => 0,
          3,
        ),
      );
    },
  },
  // "growing intervals and slight random spread": Akka RetrySupport's fixed-delay overload
  // retry(attempt, attempts = 3, delay = 2.seconds): 2 s every time, no draw.
  {
    does: 'is an Akka HTTP client using RetrySupport.retry(attempts = 3, delay = 2.seconds) (fixed delay), four reads each through two 500s',
    fails: ['retry.growing-waits', 'retry.spread'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: () => 2_000, failures: 2, max: 3, ops: 4 });
    },
  },
  // "retry only after rate_limited and internal" and "Tokens are ... renewed": a Crystal retriable block
  // rescuing every exception, so a read whose token expired (401) is retried with it 6 s and 9 s later.
  {
    does: 'is a Crystal retriable block rescuing every exception, retrying a read with its expired token after the 401, 6 s and 9 s later',
    fails: ['retry.only-after-failure', 'auth.renewed-after-expiry'],
    async run(t) {
      const a = auth(t, undefined, 60);
      ok('first read', await get(t, a, '/connectors'));
      await t.sandbox.control.advanceClock(120);
      const r = await loop(
        sleeper(t),
        () => get(t, a, '/providers'),
        (n) => [6_000, 9_000][n] ?? 9_000,
        2,
        (x) => x.status !== 200,
      );
      if (r.status !== 401) throw new Error(`answered ${r.status}`);
    },
  },
  // "retry only after rate_limited and internal": a Java 11 HttpClient loop retrying while
  // `response.statusCode() >= 400`, so a create refused 400 (a one-character scopeLabel) goes again under its key.
  {
    does: 'is a Java 11 HttpClient loop retrying while statusCode() >= 400, sending a create refused 400 (scopeLabel of one character) again under its key',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const key = `java11-bad-${uuid(seeded(1557))}`;
      const body = { ...CONNECTION, scopeLabel: 'J' };
      const r = await loop(
        sleeper(t),
        () => createWith(t, a, body, key),
        sample(seeded(1567)),
        2,
        (x) => x.status >= 400,
      );
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // "respect the wait time of the response": a ServiceNow IntegrationHub REST step whose retry policy
  // is "fixed interval 5 s, 3 retries", ignoring a 429's Retry-After: 30.
  {
    does: 'is a ServiceNow IntegrationHub REST step with a fixed 5 s retry interval ignoring a 429’s Retry-After: 30',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 30, count: 1 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connections'),
          () => 5_000,
          3,
        ),
      );
    },
  },
  // "A sample client makes up to 4 attempts": an app retrying a read the sample's way (4 attempts) behind
  // a Linkerd proxy whose route is marked retryable, which also retries each 500 once at once: 8 attempts.
  {
    does: 'retries a read four times the sample’s way behind a Linkerd proxy that also retries each 500 once at once (eight attempts)',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1559);
      fault(t, { kind: 'internal', route: 'listProviders', count: 7 });
      // The proxy: one immediate retry of a 500 within its budget.
      const proxied = async () => {
        const r = await get(t, a, '/providers');
        return r.status >= 500 ? get(t, a, '/providers') : r;
      };
      ok('read', await loop(sleeper(t), proxied, akkaBackoff(random, 500, 5_000, 0.5), 3));
    },
  },
];
