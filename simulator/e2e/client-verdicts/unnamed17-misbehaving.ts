import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import { sample } from './unnamed15-kit.ts';
import { flinkExponential, powerAutomateDefault } from './unnamed17-kit.ts';

/**
 * Round 17, misbehaving clients (schedules, attempts, 4xx): each breaks one duty and must fail exactly
 * that rule, with evidence. The sentence broken is quoted above it.
 */
export const MISBEHAVING_17: FaultyClient[] = [
  // "slight random spread": Flink's AsyncRetryStrategies exponential-backoff strategy (initial 500 ms,
  // multiplier 2) draws nothing: every operation waits 500 ms, then 1 s.
  {
    does: 'is a Flink async I/O function with an ExponentialBackoffDelayRetryStrategy (500 ms, x2, no jitter), four reads each through two 500s',
    fails: ['retry.spread'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: flinkExponential, failures: 2, max: 3, ops: 4 });
    },
  },
  // "Clients retry with growing intervals": a Jenkins pipeline's `retry(3) { httpRequest ... }` has no
  // sleep between tries: three immediate retries.
  {
    does: 'is a Jenkins pipeline wrapping httpRequest in retry(3) with no sleep, three immediate retries through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 3 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connectors'),
          () => 0,
          3,
        ),
      );
    },
  },
  // "retry only after rate_limited and internal": a Jenkins httpRequest step with validResponseCodes
  // '200' throws on a 400 too, and retry(3) with a growing sleep sends the same bad capability check again.
  {
    does: 'is a Jenkins pipeline whose retry(3) also catches the 400 of an invalid capability check, sending it unchanged three more times',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { connectorId: 'x', capability: 'orders.read' };
      const r = await loop(
        sleeper(t),
        () => api(t, a, 'POST', '/capabilities', { body }),
        sample(seeded(1753)),
        3,
        (x) => x.status >= 400,
      );
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // "A sample client makes up to 4 attempts": a Power Automate HTTP action on its default policy (four
  // exponential retries) creating a venue through four 500s under one key: five attempts.
  {
    does: 'is a Power Automate HTTP action on the default retry policy creating a venue under one key through four 500s: five attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 4 });
      const key = `flow-${uuid(seeded(1754))}`;
      const body = { ...CONNECTION, scopeLabel: 'Flow Falafel' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, key), powerAutomateDefault(seeded(1764)), 4));
    },
  },
  // "Clients retry with growing intervals": a Chef http_request resource with `retries 3, retry_delay 2`
  // waits the same 2 s before every retry.
  {
    does: 'is a Chef http_request resource with retries 3, retry_delay 2 (a fixed delay) reading through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 3 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/providers'),
          () => 2_000,
          3,
        ),
      );
    },
  },
  // "Clients retry with growing intervals": a Salt state with `retry: {attempts: 4, interval: 2, splay: 2}`
  // waits interval + a draw in [0, splay] s every time: spread, but the intervals never grow.
  {
    does: 'is a Salt http.query state with retry {attempts: 4, interval: 2, splay: 2}: a draw of 2-4 s every time, never growing, five reads each through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const random = seeded(1756);
      const schedule = () => 2_000 + Math.floor(random() * 2_000);
      await readsThrough(t, auth(t), sleeper(t), { schedule, failures: 3, max: 3, ops: 5 });
    },
  },
  // "the same key with the same content": a WordPress plugin's WP-Cron callback calls wp_generate_uuid4()
  // for the key each time it runs, so the create that got a 500 goes again under a new key.
  {
    does: 'is a WordPress plugin whose WP-Cron callback generates the key with wp_generate_uuid4() on every run, a failed create sent again 40 s later under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1757);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Cron Crumpet House' };
      const send = () => createWith(t, a, body, uuid(random));
      ok('create', await loop(sleeper(t), send, () => 40_000, 1));
    },
  },
  // "respect the wait time of the response": a dbt Python model's requests loop that sleeps a fixed 1 s
  // after any non-200, a 429's Retry-After: 10 ignored.
  {
    does: 'is a dbt Python model sleeping a fixed 1 s after a 429 with Retry-After: 10 before reading again',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 10, count: 1 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connections'),
          () => 1_000,
          1,
        ),
      );
    },
  },
  // "Clients retry with growing intervals": a Salt state with `retry: {attempts: 4, interval: 1, splay: 4}`
  // waits a draw of 1-5 s before every retry: a wide spread under a cap that never grows.
  {
    does: 'is a Salt http.query state with retry {attempts: 4, interval: 1, splay: 4}: a draw of 1-5 s every time under a fixed cap, five reads each through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const random = seeded(1759);
      const schedule = () => 1_000 + Math.floor(random() * 4_000);
      await readsThrough(t, auth(t), sleeper(t), { schedule, failures: 3, max: 3, ops: 5 });
    },
  },
  // "Sample calls send a header Service-Version with the version identifier": a Jenkins pipeline whose
  // shared library sets customHeaders for reads but whose create step builds its own list without it.
  {
    does: 'is a Jenkins shared library sending Service-Version on its reads but building the create step’s customHeaders without it',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      ok('read', await get(t, a, '/connectors'));
      const body = { ...CONNECTION, scopeLabel: 'Library Lane Larder' };
      ok(
        'create',
        await api(t, a, 'POST', '/connections', { body, key: 'jenkins-lib-build-881-create', version: null }),
      );
    },
  },
];
