import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import { helidonJitter, nodeRedDelay, octokitRetry, redo } from './unnamed20-kit.ts';

/** Round 20, misbehaving clients (retry schedules and keys): each must fail exactly the rules it breaks. */
export const MISBEHAVING_20: FaultyClient[] = [
  // "growing intervals and slight random spread": @octokit/plugin-retry waits 1 s, 4 s, 9 s and draws
  // nothing, so every read's retries fall at the same moments.
  {
    does: 'is a GitHub Actions step on @octokit/plugin-retry (1 s x (n+1)^2, no jitter), three reads each through two 500s',
    fails: ['retry.spread'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: octokitRetry, failures: 2, max: 3 });
    },
  },
  // "A sample client makes up to 4 attempts": Mozilla's redo on its defaults (attempts=5, sleeptime=10,
  // sleepscale=1.5, jitter=1), one read through four 500s: five attempts.
  {
    does: 'is a Python job on Mozilla redo.retry’s defaults (attempts=5, sleeptime=10, sleepscale=1.5, jitter=1) reading through four 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      fault(t, { kind: 'internal', route: 'listConnections', count: 4 });
      const wait = redo({ sleeptimeS: 10, sleepscale: 1.5, jitterS: 1 }, seeded(2051));
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), wait, 4));
    },
  },
  // "Clients retry with growing intervals": an Azure Data Factory Web activity (retry 3,
  // retryIntervalInSeconds 20): the same 20 s every time.
  {
    does: 'is an Azure Data Factory Web activity (retry 3, retryIntervalInSeconds 20) reading connectors through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 3 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connectors'),
          () => 20_000,
          3,
        ),
      );
    },
  },
  // "Clients retry with growing intervals": Ruby Excon with idempotent: true, retry_limit 4 and
  // retry_errors including Excon::Error::InternalServerError; retry_interval defaults to 0.
  {
    does: 'is a Ruby Excon connection (idempotent: true, retry_limit 4, retry_interval 0, 500s in retry_errors) re-sending a read at once through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 3 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/providers?category=pos'),
          () => 0,
          3,
        ),
      );
    },
  },
  // "Clients retry with growing intervals": Helidon's Retry.JitterRetryPolicy (delay 200 ms, jitter 50 ms):
  // about 200 ms every time, three reads each through three 500s. A wrong verdict today (2026-11-27): its
  // nine waits (153-240 ms) pass `retry.growing-waits`, as consecutive draws differ by more than the rule's
  // 10 ms / 5 % and their medians by position happen to rise; kept as it should be, so it fails until fixed.
  {
    does: 'is a Helidon SE client with Retry.JitterRetryPolicy (calls 4, delay 200 ms, jitter 50 ms), three reads each through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: helidonJitter(seeded(2055)), failures: 3, max: 3 });
    },
  },
  // "Clients retry with growing intervals": sethvargo/go-retry's WithJitterPercent(15, NewConstant(1 * time.Second)):
  // one second moved by up to ±15 % every time, four reads each through three 500s. The draws keep two
  // consecutive waits apart by more than 5 %, but the intervals do not grow.
  {
    does: 'is a Go client on sethvargo/go-retry WithJitterPercent(15, NewConstant(1s)) with WithMaxRetries(3), four reads each through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const random = seeded(2061);
      const schedule = () => Math.round(1_000 * (1 + (random() * 2 - 1) * 0.15));
      await readsThrough(t, auth(t), sleeper(t), { schedule, failures: 3, max: 3, ops: 4 });
    },
  },
  // "respect the wait time of the response": a Rundeck job step with retry 3 and delay 0 re-runs the step
  // at once when its curl exits non-zero on a 429 (Retry-After 4).
  {
    does: 'is a Rundeck job step (retry 3, delay 0) re-running its curl at once after a 429 (Retry-After 4)',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 4, count: 1 });
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
  // "use a new key for each new operation": a Kestra flow uses {{ execution.id }} as the Idempotency-Key of
  // both its creates (two venues), so the second is another content under a used key.
  {
    does: 'is a Kestra flow using {{ execution.id }} as the Idempotency-Key of two creates for two venues',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const key = `kestra-exec-${uuid(seeded(2057)).replaceAll('-', '')}`;
      ok('first', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Kestra Kebab North' }, key));
      await sleeper(t)(1_200);
      const second = await createWith(t, a, { ...CONNECTION, scopeLabel: 'Kestra Kebab South' }, key);
      if (second.status !== 409) throw new Error(`answered ${second.status}`);
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": a Node-RED function node stamps
  // msg.headers['Idempotency-Key'] = RED.util.generateId() on every pass, and the catch loop sends the msg
  // back through it: each retry of the create carries a new key.
  {
    does: 'is a Node-RED flow whose function node stamps a new RED.util.generateId() key on every pass, so the catch loop retries a create (500 after commit) under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(2058);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Node Red Ramen' };
      const id = () => Math.floor(random() * 2 ** 52).toString(16);
      await loop(sleeper(t), () => createWith(t, a, body, `nodered.${id()}`), nodeRedDelay(seeded(2059)), 3);
    },
  },
  // "retry only after rate_limited and internal": an Armeria RetryRule.builder().onStatusClass(CLIENT_ERROR)
  // retries every 4xx; a create sent without its key (428) is sent again unchanged.
  {
    does: 'is an Armeria RetryingClient whose RetryRule retries every 4xx, repeating a create refused 428 (no key) unchanged twice',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Armeria Keyless Kitchen' };
      const r = await loop(
        sleeper(t),
        () => api(t, a, 'POST', '/connections', { body }),
        (n) => 500 * 2 ** n + 61 * n,
        2,
        (x) => x.status >= 400 && x.status < 500,
      );
      if (r.status !== 428) throw new Error(`answered ${r.status}`);
    },
  },
  // "Clients retry with growing intervals and slight random spread": Finagle with Backoff.const(1.second),
  // three reads each through three 500s: neither growing nor spread.
  {
    does: 'is a Finagle client with Backoff.const(1.second), three reads each through three 500s',
    fails: ['retry.growing-waits', 'retry.spread'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: () => 1_000, failures: 3, max: 3, from: 2 });
    },
  },
];
