import { auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import {
  http4sBackoff,
  jpilloraBackoff,
  makeFetchHappen,
  minionBackoff,
  niquestsRetry,
  smithyStandard,
  stainlessRetry,
} from './unnamed22-kit.ts';

/**
 * Round 22, well-behaved clients (generated SDKs, HTTP middlewares and job queues no earlier round used).
 * Each must get no `fail`; the interface sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_22: UnnamedClient2[] = [
  // "the same key with the same content returns the same response again": a Stainless-generated TypeScript
  // SDK for the interface (`idempotencyHeader: 'Idempotency-Key'`) makes `stainless-node-retry-<uuid>` once per
  // request and sends it on every retry (maxRetries 2), here after a 500 after commit.
  {
    does: 'is a Stainless-generated TypeScript SDK (maxRetries 2) re-sending a create with its per-request stainless-node-retry key after a 500 after commit',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Stainless Saltimbocca' };
      const key = 'stainless-node-retry-6f1c0b2e-93a4-4d8e-b7f5-2a91c3e04d17';
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, key), stainlessRetry(seeded(2201)), 2));
    },
  },
  // "respect the wait time of the response": the same SDK sleeps a Retry-After under 60 s exactly, then its
  // own jittered 0.5 s x2 after a 500.
  {
    does: 'is a Stainless-generated SDK sleeping a 429’s Retry-After of 4 s exactly, then its own jittered wait after a 500',
    pass: ['retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 4, count: 1 });
      fault(t, { kind: 'internal', route: 'listConnectors', count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors?category=pos'), stainlessRetry(seeded(2202)), 2));
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": http4s' Retry middleware with
  // `RetryPolicy.defaultRetriable` retries a POST only because it carries an Idempotency-Key header; its
  // exponentialBackoff(8 s, 3) waits 2 s, then 4 s, through a gateway 503 after commit.
  {
    does: 'is a Scala http4s client under Retry(RetryPolicy(exponentialBackoff(8.seconds, 3))) retrying a keyed POST after a gateway 503 after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'unavailable', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Http4s Hummus' };
      replayed(
        'create',
        await loop(sleeper(t), () => createWith(t, a, body, 'http4s-c0ffee12-venue'), http4sBackoff, 3),
      );
    },
  },
  // "Clients retry with growing intervals": the same http4s policy on a read through three 500s: 2, 4, 8 s.
  {
    does: 'is a Scala http4s client under exponentialBackoff(8.seconds, 3) reading providers through three 500s (2 s, 4 s, 8 s)',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 3 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), http4sBackoff, 3));
    },
  },
  // "growing intervals and slight random spread": a Node CLI on make-fetch-happen with npm's retry defaults
  // (2 retries, factor 10, 10 s to 60 s, randomized): about 10-20 s, then 60 s, through two 500s.
  {
    does: 'is a Node CLI on make-fetch-happen with npm’s retry defaults (2 retries, factor 10, 10 s to 60 s, randomize) reading through two 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/capabilities'), makeFetchHappen(seeded(2205)), 2));
    },
  },
  // "growing intervals and slight random spread": a Go worker on jpillora/backoff (Min 500 ms, Max 10 s,
  // Factor 2, Jitter true), three reads each through three 500s: the first retry is exactly Min, the later
  // ones drawn between Min and the doubled value.
  {
    does: 'is a Go worker on jpillora/backoff (Min 500 ms, Max 10 s, Factor 2, Jitter) with three reads each through three 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), {
        schedule: jpilloraBackoff(seeded(2206)),
        failures: 3,
        max: 3,
        from: 1,
      });
    },
  },
  // "A sample client makes up to 4 attempts": a Smithy-generated TypeScript client (StandardRetryStrategy,
  // maxAttempts 3, full jitter on 100 ms), three reads each through two 500s.
  {
    does: 'is a Smithy-generated TypeScript client (StandardRetryStrategy, maxAttempts 3, full jitter on 100 ms), three reads each through two 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: smithyStandard(seeded(2207)), failures: 2, max: 2 });
    },
  },
  // "the same key with the same content": a Perl Minion job (attempts 3, the default backoff retries**4 + 15 s)
  // keys its create with "minion-<job id>"; after a 500 after commit Minion retries the job 15 s later.
  {
    does: 'is a Perl Minion job (attempts 3, backoff retries**4 + 15 s) keying its create with its job id, retried 15 s after a 500 after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Minion Moussaka' };
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, 'minion-job-48213'), minionBackoff, 2));
    },
  },
  // "the same key with the same content": niquests (urllib3-future) with `Retry(total=3, backoff_factor=0.5,
  // backoff_jitter=0.3, allowed_methods=None, status_forcelist=[500, 503])` on a session whose create carries a
  // key made before the call: urllib3 retries at once first, the key unchanged, after a 500 after commit.
  {
    does: 'is a Python service on niquests with Retry(backoff_factor=0.5, backoff_jitter=0.3, allowed_methods=None) re-sending a keyed create at once after a 500 after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Niquests Nasi Goreng' };
      const wait = niquestsRetry(seeded(2209));
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, 'nq-3b7e21c4-venue-create'), wait, 3));
    },
  },
  // "respect the wait time of the response": the same niquests Retry (respect_retry_after_header on) through a
  // 503 with Retry-After 2 and a 500 on one read: 2 s exactly, then 0.5 s plus its draw.
  {
    does: 'is a Python service on niquests Retry (respect_retry_after_header) reading through a gateway 503 with Retry-After 2, then a 500',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'listConnections', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'internal', route: 'listConnections', count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), niquestsRetry(seeded(2210)), 3));
    },
  },
];
