import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import { ballerinaRetry, logicAppsExponential, nimSample, teslaRetry, workflowsBackoff } from './unnamed16-kit.ts';

/**
 * Round 16, misbehaving clients (attempts, schedules, Retry-After, keys, 4xx, 2xx): each breaks one duty
 * and must fail exactly that rule, with evidence. The sentence broken is quoted above it.
 */
export const MISBEHAVING_16: FaultyClient[] = [
  // "A sample client makes up to 4 attempts": Google Workflows' `http.default_retry` has max_retries 5.
  {
    does: 'is a Google Workflows http.get step with retry: http.default_retry (max_retries 5) reading through five gateway 503s: six attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'listConnectors', retryAfterSeconds: 0, count: 5 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), workflowsBackoff(), 5));
    },
  },
  // "A sample client makes up to 4 attempts": the Logic Apps default retry policy is four retries at
  // exponential intervals (7.5 s, minimum 5 s): five attempts of one read.
  {
    does: 'is an Azure Logic Apps HTTP action left on the default retry policy (four exponential retries from 7.5 s) reading through four 500s: five attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 4 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), logicAppsExponential(seeded(1652)), 4));
    },
  },
  // "Clients retry with growing intervals": PowerShell's Invoke-RestMethod -MaximumRetryCount 3
  // -RetryIntervalSec 2 waits the same 2 s before every retry.
  {
    does: 'is a PowerShell script using Invoke-RestMethod -MaximumRetryCount 3 -RetryIntervalSec 2 (a fixed interval) through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 3 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/capabilities'),
          () => 2_000,
          3,
        ),
      );
    },
  },
  // "slight random spread": Ballerina's http:Client retryConfig (interval 0.5, backOffFactor 2.0) has
  // no jitter at all: every operation waits 500 ms, then 1 s.
  {
    does: 'is a Ballerina http:Client with retryConfig { count: 3, interval: 0.5, backOffFactor: 2.0 } (no jitter), four reads each through two 500s',
    fails: ['retry.spread'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: ballerinaRetry, failures: 2, max: 3, ops: 4 });
    },
  },
  // "slight random spread": an Ansible uri task with `until: result.status == 200, retries: 3, delay: 5`
  // retries after exactly 5 s every time.
  {
    does: 'is an Ansible uri task with until/retries 3/delay 5 (a fixed delay, no draw), four reads each through one 500',
    fails: ['retry.spread'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: () => 5_000, failures: 1, max: 3, ops: 4 });
    },
  },
  // "respect the wait time of the response": Tesla.Middleware.Retry never reads Retry-After; its
  // delay (500 ms, jitter_factor 0.2) comes long before a 429's Retry-After: 5.
  {
    does: 'is an Elixir Tesla client whose Middleware.Retry (delay 500) retries a 429 after ~450 ms, ignoring its Retry-After: 5',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 5, count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), teslaRetry(seeded(1656)), 3));
    },
  },
  // "the same key with the same content": an Ansible uri task whose header is
  // `Idempotency-Key: "{{ lookup('community.general.random_string', length=24) }}"`, templated anew on each
  // until-retry: the create that failed with a 500 goes again under another key.
  {
    does: 'is an Ansible uri task templating its Idempotency-Key from a random_string lookup on every until-retry, a failed create sent again under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1657);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Templated Tavern' };
      const send = () => createWith(t, a, body, `ansible-${uuid(random).replaceAll('-', '').slice(0, 24)}`);
      ok('create', await loop(sleeper(t), send, () => 5_000, 1));
    },
  },
  // "retry only after rate_limited and internal": a Nim client sending its key as `Idempotency_Key`
  // (an underscore), refused 428, and treating every status >= 400 as transient: the 428 repeated unchanged.
  {
    does: 'is a Nim client sending its key as Idempotency_Key (underscore), refused 428, repeating the create unchanged twice',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Underscore Udon' };
      const send = () =>
        api(t, a, 'POST', '/connections', { body, headers: { idempotency_key: 'nim-underscore-0001' } });
      const r = await loop(sleeper(t), send, nimSample(seeded(1658)), 2, (x) => x.status >= 400);
      if (r.status !== 428) throw new Error(`answered ${r.status}`);
    },
  },
  // "retry only after rate_limited and internal": a Tesla client with `should_retry: fn {:ok, %{status:
  // s}} -> s != 201 end`; the service answers 200, so every successful create is sent again under its key.
  {
    does: 'is an Elixir Tesla client whose should_retry expects 201, sending every successful create (200) again under its key three times',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const key = `tesla-${uuid(seeded(1659))}`;
      const body = { ...CONNECTION, scopeLabel: 'Two-Oh-One Tapas' };
      const r = await loop(
        sleeper(t),
        () => createWith(t, a, body, key),
        teslaRetry(seeded(1669)),
        3,
        (x) => x.status !== 201,
      );
      replayed('last', r);
    },
  },
  // "use a new key for each new operation": a Logic Apps For each over two venues whose HTTP action
  // keys every iteration by @{workflow().run.name}: the second venue is refused idempotency_conflict.
  {
    does: 'is an Azure Logic Apps For each creating two venues with the same @{workflow().run.name} key, the second answered idempotency_conflict',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const key = '08584512345678901234CU07';
      ok('first', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Loop Lane Diner' }, key));
      await sleeper(t)(1_200);
      const r = await createWith(t, a, { ...CONNECTION, scopeLabel: 'Loop Lane Bakery' }, key);
      if (r.status !== 409) throw new Error(`answered ${r.status}`);
    },
  },
];
