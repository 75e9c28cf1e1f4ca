import { api, auth, CONNECTION, fault, READS } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { cenkalti, sleeper } from './unnamed6-kit.ts';
import { temporalIntervalMs } from './unnamed7-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';
import {
  curlRetry,
  envoyBackoff,
  goLinearJitter,
  guzzleExponentialDelay,
  ktorConstant,
  logicAppsDefault,
  pRetryTimeout,
} from './unnamed9-kit.ts';

/**
 * Round 9, misbehaving stacks: each breaks one duty and must fail exactly that rule, with evidence.
 * The sentence broken is quoted above each.
 */
export const MISBEHAVING_9: FaultyClient[] = [
  // "respect the wait time of the response": LinearJitterBackoff never reads Retry-After (only
  // go-retryablehttp's DefaultBackoff does), so a 429 asking for 3 s is retried after 0.4-0.8 s.
  {
    does: 'is a Go service on go-retryablehttp with Backoff: LinearJitterBackoff (400-800 ms), which ignores Retry-After, retrying two reads’ 429s (Retry-After: 3)',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = goLinearJitter(400, 800, seeded(921));
      for (const [route, path] of READS.slice(0, 2)) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 3, count: 1 });
        await retrying(sleep, () => get(t, a, path), wait, { ignoreRetryAfter: true });
        await sleep(4_000);
      }
    },
  },
  // "growing intervals and slight random spread": Guzzle's exponentialDelay (1 s, 2 s, 4 s) has no
  // jitter at all; five reads through three 500s each show it.
  {
    does: 'is a PHP service on Guzzle’s retry middleware with the stock RetryMiddleware::exponentialDelay (1 s, 2 s, 4 s, no jitter), five reads each through three 500s',
    fails: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (const [route, path] of READS) {
        fault(t, { kind: 'internal', route, count: 3 });
        ok(
          path,
          await retrying(
            sleep,
            () => get(t, a, path),
            (n) => guzzleExponentialDelay(n + 1),
          ),
        );
        await sleep(5_000);
      }
    },
  },
  // "A sample client makes up to 4 attempts": p-retry's default is retries: 10.
  {
    does: 'is a Deno service wrapping fetch in p-retry on its defaults (retries 10, factor 2, minTimeout 1 s), seven attempts of one read through an outage',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 6 });
      ok('providers', await retrying(sleeper(t), () => get(t, a, '/providers'), pRetryTimeout(), { max: 10 }));
    },
  },
  // The same sentence: a Temporal activity on the default RetryPolicy (MaximumAttempts 0: unlimited),
  // its create keyed by workflow and activity id, through seven failures.
  {
    does: 'is a Temporal activity on the default RetryPolicy (1 s, ×2, MaximumAttempts unlimited) creating under its workflow-id:activity-id key through six 500s: seven attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 6 });
      const body = { ...CONNECTION, scopeLabel: 'Unlimited Attempts Arcade' };
      const key = 'wf-sync-venue-3391:activity-2';
      ok(
        'the create',
        await retrying(
          sleeper(t),
          () => api(t, a, 'POST', '/connections', { body, key }),
          (n) => temporalIntervalMs(n + 1),
          { max: 50 },
        ),
      );
    },
  },
  // "respect the wait time of the response": an Envoy route with retry_on retriable-status-codes [429]
  // but no rate_limited_retry_back_off retries on its default back-off (25 ms base), never reading
  // Retry-After.
  {
    does: 'sits behind an Envoy sidecar with retry_on retriable-status-codes [429] on the default back-off (25 ms base) and no rate_limited_retry_back_off, so three reads’ 429s (Retry-After: 1) are retried within 25 ms',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = envoyBackoff(25, seeded(923));
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 1, count: 1 });
        await retrying(sleep, () => get(t, a, path), wait, { max: 1, ignoreRetryAfter: true });
        await sleep(2_000);
      }
    },
  },
  // "Clients retry with growing intervals": `curl --retry 3 --retry-delay 1` waits 1 s every time.
  {
    does: 'is a bash script with curl --retry 3 --retry-delay 1 (a fixed second between tries) reading through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnections', count: 3 });
      ok(
        'connections',
        await retrying(
          sleeper(t),
          () => get(t, a, '/connections'),
          (n, r) => curlRetry(n, r, 1_000),
        ),
      );
    },
  },
  // "retry with growing intervals": Ktor's constantDelay(1000, randomizationMs = 500) spreads, but its
  // intervals never grow.
  {
    does: 'is a Kotlin Ktor client with HttpRequestRetry { retryOnServerErrors(3); constantDelay(1000, randomizationMs = 500) }, five reads each through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = ktorConstant(1_000, 500, seeded(924));
      for (const [route, path] of READS) {
        fault(t, { kind: 'internal', route, count: 3 });
        ok(path, await retrying(sleep, () => get(t, a, path), wait));
        await sleep(4_000);
      }
    },
  },
  // The same sentence: a Polly v7 WaitAndRetry whose sleepDurationProvider divides where it meant to
  // multiply (3 s / attempt, plus a jitterer's 0-250 ms): the waits shrink, 3 s, 1.5 s, 1 s.
  {
    does: 'is a .NET Polly v7 WaitAndRetryAsync(3, attempt => 3 s / attempt + jitterer.Next(0, 250) ms) (divided where it meant multiplied), five reads each through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(928);
      for (const [route, path] of READS) {
        fault(t, { kind: 'internal', route, count: 3 });
        ok(
          path,
          await retrying(
            sleep,
            () => get(t, a, path),
            (n) => Math.round(3_000 / (n + 1)) + Math.floor(random() * 250),
          ),
        );
        await sleep(5_000);
      }
    },
  },
  // "A sample client makes up to 4 attempts": Rust's backoff crate on ExponentialBackoff::default()
  // stops only after max_elapsed_time (15 minutes), however many attempts that is.
  {
    does: 'is a Rust service using the backoff crate’s retry() with ExponentialBackoff::default() (no attempt cap, 15-minute max_elapsed_time) through a 20 s outage',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      fault(t, { kind: 'internal', route: 'listCapabilities', durationSeconds: 20 });
      const next = cenkalti(seeded(925));
      let r = await get(t, a, '/capabilities');
      while (r.status >= 500) {
        await sleep(next());
        r = await get(t, a, '/capabilities');
      }
      ok('capabilities', r);
    },
  },
  // The same sentence: an Azure Logic Apps HTTP action on the default retry policy (exponential
  // interval, four retries): five attempts.
  {
    does: 'is an Azure Logic Apps HTTP action on the default retry policy (exponential 7.5 s·2^n ±20 %, between 5 s and 45 s, 4 retries) through four 500s: five attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const random = seeded(926);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 4 });
      ok(
        'connectors',
        await retrying(
          sleeper(t),
          () => get(t, a, '/connectors'),
          (n) => logicAppsDefault(n, random),
          { max: 4 },
        ),
      );
    },
  },
  // "retry only after rate_limited and internal": Faraday::Retry with retry_statuses [401, 429, 503]
  // (401 added for "token glitches") sends the read again with the same expired token.
  {
    does: 'is a Ruby service on Faraday::Retry with retry_statuses [401, 429, 503] (max 2, interval 0.5, backoff_factor 2), repeating a read refused 401 with the same expired token',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t, undefined, 60);
      const random = seeded(927);
      ok('first read', await get(t, a, '/connectors'));
      await t.sandbox.control.advanceClock(120);
      const r = await retrying(
        sleeper(t),
        () => get(t, a, '/providers'),
        (n) => Math.round(500 * 2 ** n + random() * 0.5 * 500),
        { max: 2, retryIf: (x) => [401, 429, 503].includes(x.status) },
      );
      if (r.status !== 401) throw new Error(`answered ${r.status}`);
    },
  },
];
