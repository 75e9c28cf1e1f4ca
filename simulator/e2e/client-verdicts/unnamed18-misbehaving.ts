import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import {
  celeryBackoff,
  denoKvSchedule,
  eventBridge,
  fluentBit,
  haproxyLua,
  knativeExponential,
  vectorNone,
} from './unnamed18-kit.ts';

/**
 * Round 18, misbehaving clients (schedules, attempts, keys, 4xx): each breaks one duty and must fail exactly
 * that rule (or the rules named), with evidence. The sentence broken is quoted above it.
 */
export const MISBEHAVING_18: FaultyClient[] = [
  // "growing intervals and slight random spread": Vector's http sink with retry_jitter_mode = "None" waits
  // its bare Fibonacci sequence, 1 s, 1 s, 2 s: the first two equal, and no draw at all.
  {
    does: 'is a Vector http sink with retry_jitter_mode = "None" (1 s, 1 s, 2 s), three reads each through three 500s',
    fails: ['retry.growing-waits', 'retry.spread'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: vectorNone, failures: 3, max: 3 });
    },
  },
  // "A sample client makes up to 4 attempts": Fluent Bit's http output with Retry_Limit no_limits keeps
  // rescheduling a capability check: six attempts through five 500s.
  {
    does: 'is a Fluent Bit http output with Retry_Limit no_limits, posting one capability check six times through five 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'checkCapability', count: 5 });
      const body = { connectorId: CONNECTION.connectorId, capability: 'orders.read' };
      ok(
        'check',
        await loop(sleeper(t), () => api(t, a, 'POST', '/capabilities', { body }), fluentBit(seeded(1851)), 5),
      );
    },
  },
  // "A sample client makes up to 4 attempts": an EventBridge API destination on the default retry policy
  // (185 retries within 24 h) creates under the event id as key, through five 500s: six attempts.
  {
    does: 'is an EventBridge API destination on the default retry policy (185 retries), creating under the event id through five 500s: six attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 5 });
      const key = `evb-${uuid(seeded(1852))}`;
      const body = { ...CONNECTION, scopeLabel: 'Bus Stop Bistro' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, key), eventBridge(seeded(1862)), 5));
    },
  },
  // "Clients retry with growing intervals": a Hasura event trigger with retry_conf {num_retries: 3,
  // interval_sec: 10} redelivers to the handler every 10 s, and the handler creates again under the event id.
  {
    does: 'is a Hasura event-trigger handler whose retry_conf (num_retries 3, interval_sec 10) redelivers a failed create every 10 s under the event id',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 3 });
      const body = { ...CONNECTION, scopeLabel: 'Trigger Taco Stand' };
      const key = 'hasura-event-7d3c1f0a-91e2-4b7c';
      ok(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, key),
          () => 10_000,
          3,
        ),
      );
    },
  },
  // "slight random spread": Deno KV queues' backoffSchedule is a fixed list; three messages each through two
  // 500s wait exactly 1 s then 5 s: growing, but the same to the millisecond every time.
  {
    does: 'is a Deno KV queue with backoffSchedule [1000, 5000, 10000], three messages each through two 500s, the same waits to the millisecond',
    fails: ['retry.spread'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: denoKvSchedule, failures: 2, max: 3 });
    },
  },
  // "the same key with the same content": an Azure Durable Functions activity makes its key with
  // Guid.NewGuid() inside the activity, so CallActivityWithRetryAsync's retry after a 500 sends a new one.
  {
    does: 'is a Durable Functions activity calling Guid.NewGuid() for its key inside the activity, retried by CallActivityWithRetryAsync after a 500 after commit',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1856);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Activity Arepa House' };
      ok(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, uuid(random)),
          (n) => 2_000 * 2 ** n,
          3,
        ),
      );
    },
  },
  // "use a new key for each new operation" and "retry only after rate_limited and internal": a CloudEvents
  // source reusing ce-id for a changed event; the subscriber keys by ce-id, is answered 409
  // idempotency_conflict, passes the 409 up, and Knative (which retries 409) redelivers it twice.
  {
    does: 'is a Knative subscriber keying by a ce-id its source reused for changed content, whose 409 conflict the broker redelivers twice',
    fails: ['idempotency.one-key-one-content', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const key = 'ce-id.reused-by-source-0001';
      ok('first', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Source Sushi One' }, key));
      await sleeper(t)(4_000);
      const changed = { ...CONNECTION, scopeLabel: 'Source Sushi Two' };
      const r = await loop(
        sleeper(t),
        () => createWith(t, a, changed, key),
        knativeExponential,
        2,
        (x) => x.status === 409,
      );
      if (r.status !== 409) throw new Error(`answered ${r.status}`);
    },
  },
  // "respect the wait time of the response": a HAProxy Lua action retrying a 429 on its own backoff
  // (about 0.5 s, then 1 s), never reading Retry-After: 5.
  {
    does: 'is a HAProxy Lua action retrying two 429s (Retry-After 5) on its own 500 * 2^n + draw backoff',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 5, count: 2 });
      ok(
        'read',
        await loop(sleeper(t), () => get(t, a, '/connectors?providerId=tillcraft'), haproxyLua(seeded(1858)), 3),
      );
    },
  },
  // "retry only after rate_limited and internal": a Celery task with autoretry_for=(HTTPError,) and
  // retry_backoff=True catches raise_for_status()'s 400 too, re-running a create the service refused (its key
  // made from the task id, so the same) three more times.
  {
    does: 'is a Celery task with autoretry_for=(HTTPError,) and retry_backoff, re-running a create refused 400 three times under its task-id key',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const bad = { ...CONNECTION, capabilities: [] };
      const key = `celery-task-${uuid(seeded(1859))}`;
      const r = await loop(
        sleeper(t),
        () => createWith(t, a, bad, key),
        celeryBackoff(seeded(1869)),
        3,
        (x) => x.status >= 400,
      );
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
];
