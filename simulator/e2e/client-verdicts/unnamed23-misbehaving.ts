import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import {
  eapacheRetrier,
  fs2Retry,
  httrRetry,
  jobRunrBackoff,
  machineryFibonacci,
  saloonExponential,
  taskiqSmartRetry,
} from './unnamed23-kit.ts';

const any = () => true;

/** Round 23, misbehaving clients (retry schedules, attempts and keys): each must fail exactly the rules it breaks. */
export const MISBEHAVING_23: FaultyClient[] = [
  // "A sample client makes up to 4 attempts": httr's RETRY(times = 6), one read through five 500s.
  {
    does: 'is an R script on httr::RETRY(times = 6, pause_base = 0.5, pause_min = 0.5), reading connections through five 500s (six attempts)',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnections', count: 5 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), httrRetry(seeded(2351)), 5));
    },
  },
  // "respect the wait time of the response": a tower retry Policy whose `retry` future sleeps a fixed
  // 100 ms (tokio::time::sleep), where the 429 said Retry-After 2.
  {
    does: 'is a Rust service behind a tower retry Policy sleeping a fixed 100 ms before retrying a 429 (Retry-After 2)',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/providers'),
          () => 100,
          3,
        ),
      );
    },
  },
  // "A sample client makes up to 4 attempts": JobRunr's default of 10 retries (3^n s): five attempts of one
  // read within two minutes (3, 9, 27, 81 s) through four 500s.
  {
    does: 'is a JobRunr job on the default 10 retries (3, 9, 27, 81 s), reading capabilities five times through four 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 4 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/capabilities'), jobRunrBackoff, 9));
    },
  },
  // "retry only after rate_limited and internal": Saloon's default handleRetry() returns true for every
  // failed request: a capability check for an unknown connector (404) is sent three times.
  {
    does: 'is a PHP Saloon connector ($tries 3) on the default handleRetry, re-sending a capability check answered 404',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { connectorId: 'no-such-connector', capability: 'orders.read' };
      const r = await loop(sleeper(t), () => api(t, a, 'POST', '/capabilities', { body }), saloonExponential, 2, any);
      if (r.status !== 404) throw new Error(`answered ${r.status}`);
    },
  },
  // "respect the wait time of the response": fs2 `Stream.retry(..., 1.second, _ * 2, 4)` never looks at the
  // answer: 1, 2, 4 s against a 429's Retry-After of 8 s, three times.
  {
    does: 'is a Scala fs2 service under Stream.retry(delay 1 s, nextDelay _ * 2, maxAttempts 4) retrying 429s (Retry-After 8) after 1, 2 and 4 s',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 8, count: 3 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), fs2Retry, 3));
    },
  },
  // "Clients retry with growing intervals": Retry4j `withFixedBackoff()` (delay 1 s, 4 tries): the same
  // second between attempts, through three 500s.
  {
    does: 'is a Dropwizard service on Retry4j withFixedBackoff (1 s, 4 tries), reading providers through three 500s a second apart',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 3 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/providers?category=pos'),
          () => 1_000,
          3,
        ),
      );
    },
  },
  // "A sample client makes up to 4 attempts": a Go Machinery task signature with RetryCount 5 (Fibonacci
  // timeouts 1, 2, 3, 5, 8 s): six attempts of one read through five 500s.
  {
    does: 'is a Go Machinery task with RetryCount 5 (Fibonacci 1, 2, 3, 5, 8 s), reading connections six times through five 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnections', count: 5 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), machineryFibonacci, 5));
    },
  },
  // "the same key with the same content": a Procrastinate task (retry=3) that makes its key inside the task
  // body (`uuid4()`), so the retry sends the create under a new key.
  {
    does: 'is a Python Procrastinate task (retry=3) making its Idempotency-Key with uuid4() inside the task body, a new key on the retry after a 500',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Procrastinate Pierogi' };
      const keys = ['pc-8e1b6d2a-0c4f-4b97-a3e5', 'pc-2a7c9f41-5d3e-4f08-b6c1'];
      const wait = taskiqSmartRetry(seeded(2358));
      ok('create', await loop(sleeper(t), (n) => createWith(t, a, body, keys[n] ?? `pc-extra-${n}`), wait, 3));
    },
  },
  // "retry only after rate_limited and internal": eapache's retrier with a nil classifier (DefaultClassifier:
  // every error is retried) re-sends a create refused 400 (no scopeLabel) under the same key.
  {
    does: 'is a Go service on eapache retrier with the DefaultClassifier, re-sending a create refused 400 under its key twice',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { connectorId: 'tillcraft-pos-cloud', environment: 'sandbox', capabilities: ['orders.read'] };
      const send = () => createWith(t, a, body, 'eapache-create-9c2e41');
      const r = await loop(sleeper(t), send, eapacheRetrier(seeded(2359)), 2, any);
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // "A sample client makes up to 4 attempts" and "growing intervals": a db-scheduler task with
  // MaxRetriesFailureHandler(6, FixedDelay.ofSeconds(5)): six attempts 5 s apart through five 500s.
  {
    does: 'is a db-scheduler task with MaxRetriesFailureHandler(6, FixedDelay.ofSeconds(5)), reading providers six times 5 s apart',
    fails: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 5 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/providers'),
          () => 5_000,
          5,
        ),
      );
    },
  },
];
