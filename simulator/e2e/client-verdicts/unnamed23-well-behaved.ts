import { auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import {
  againStrategy,
  eapacheRetrier,
  httplugDelay,
  httrRetry,
  monixRestartLoop,
  retry4jRandomExponential,
  taskiqSmartRetry,
  towerBackoff,
} from './unnamed23-kit.ts';

/**
 * Round 23, well-behaved clients (retry libraries no earlier round used). Each must get no `fail`; the
 * interface sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_23: UnnamedClient2[] = [
  // "Clients retry with growing intervals and slight random spread": an R script on httr's RETRY(times = 4,
  // pause_base = 0.5, pause_min = 0.5): full jitter with a 0.5 s floor, through three 500s.
  {
    does: 'is an R script on httr::RETRY(times = 4, pause_base = 0.5, pause_min = 0.5) reading providers through three 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 3 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), httrRetry(seeded(2301)), 3));
    },
  },
  // "growing intervals and slight random spread": a Dropwizard service on Retry4j (RandomExponentialBackoff,
  // delay 500 ms, 4 tries), three reads each through two 500s.
  {
    does: 'is a Dropwizard service on Retry4j (withRandomExponentialBackoff, 500 ms, 4 tries) with three reads each through two 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), {
        schedule: retry4jRandomExponential(seeded(2302)),
        failures: 2,
        max: 3,
      });
    },
  },
  // "the same key with the same content returns the same response again": Retry4j's CallExecutor around a
  // Callable that closes over a key made before it, through a 500 after commit.
  {
    does: 'is a Dropwizard service running a keyed create through a Retry4j CallExecutor, the key made outside the Callable, after a 500 after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Retry4j Risotto' };
      const wait = retry4jRandomExponential(seeded(2303));
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, 'r4j-7d2e9c41-venue-create'), wait, 3));
    },
  },
  // "respect the wait time of the response": a Scala service on Monix whose onErrorRestartLoop reads
  // Retry-After (5 s) from the error, then doubles its own jittered delay after a 500.
  {
    does: 'is a Scala service on Monix Task.onErrorRestartLoop reading a 429’s Retry-After of 5 s, then its jittered doubling after a 500',
    pass: ['retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 5, count: 1 });
      fault(t, { kind: 'internal', route: 'listConnectors', count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), monixRestartLoop(seeded(2304)), 3));
    },
  },
  // "growing intervals and slight random spread": a Rust service behind tower's RetryLayer with a Policy on
  // ExponentialBackoffMaker(500 ms, 8 s, jitter 0.5), three reads each through two 500s.
  {
    does: 'is a Rust service behind a tower RetryLayer (ExponentialBackoffMaker 500 ms to 8 s, jitter 0.5) with three reads each through two 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), {
        schedule: towerBackoff(seeded(2305)),
        failures: 2,
        max: 3,
        from: 2,
      });
    },
  },
  // "the same key with the same content": the tower Policy's `clone_request` copies the request with its
  // headers, so the retry of a create carries its key, here after a gateway 503 after commit.
  {
    does: 'is a Rust service behind a tower RetryLayer whose clone_request copies the create with its Idempotency-Key, after a 503 after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'unavailable', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Tower Tteokbokki' };
      replayed(
        'create',
        await loop(sleeper(t), () => createWith(t, a, body, 'tower-01HZ8Q3K7R-venue'), towerBackoff(seeded(2306)), 3),
      );
    },
  },
  // "growing intervals and slight random spread": eapache/go-resiliency's retrier (ExponentialBackoff(3,
  // 200ms), SetJitter(0.25)) with a classifier retrying only 429 and 5xx, three reads each through three 500s.
  {
    does: 'is a Go service on eapache/go-resiliency retrier (ExponentialBackoff(3, 200ms), SetJitter 0.25, a 429/5xx classifier), three reads through three 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: eapacheRetrier(seeded(2307)), failures: 3, max: 3 });
    },
  },
  // "respect the wait time of the response": a Clojure service on hato with the `again` library
  // (multiplicative 500 ms x2 randomized 0.5, max-retries 3), its callback sleeping a 429's Retry-After (3 s).
  {
    does: 'is a Clojure service on hato with again’s randomized multiplicative strategy, sleeping a 429’s Retry-After of 3 s, then a 500',
    pass: ['retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 3, count: 1 });
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/capabilities'), againStrategy(seeded(2308)), 3));
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": HTTPlug's RetryPlugin (retries 3) re-sends
  // the same PSR-7 request object, headers and all, 1 s after a 503 after commit.
  {
    does: 'is a PHP app on HTTPlug’s RetryPlugin (retries 3) re-sending the same PSR-7 create with its key after a 503 after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'unavailable', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'HTTPlug Halloumi' };
      replayed(
        'create',
        await loop(sleeper(t), () => createWith(t, a, body, 'httplug-6c1d-create-venue'), httplugDelay, 3),
      );
    },
  },
  // "the same key with the same content": a taskiq task (SmartRetryMiddleware, 3 retries, exponent and
  // jitter) keying its create with the order id it was sent, through two 500s.
  {
    does: 'is a Python taskiq task under SmartRetryMiddleware (default_delay 2, exponent, jitter) keying its create by order id through two 500s',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Taskiq Tacos' };
      ok(
        'create',
        await loop(sleeper(t), () => createWith(t, a, body, 'order-88412-connect'), taskiqSmartRetry(seeded(2310)), 3),
      );
    },
  },
];
