import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import {
  inngestBackoff,
  microProfile,
  nodeRetry,
  readsThrough,
  triggerDev,
  workqueueBackoff,
} from './unnamed13-kit.ts';

/**
 * Round 13, misbehaving clients (retry schedules and keys): each breaks one duty and must fail exactly
 * that rule (or the rules it breaks), with evidence. The sentence broken is quoted above each.
 */
export const MISBEHAVING_13: FaultyClient[] = [
  // "A sample client makes up to 4 attempts": async-retry on its defaults (retries: 10, factor 2,
  // minTimeout 1 s, randomize false) reading through five 500s: six attempts.
  {
    does: 'is a Node service on async-retry’s defaults (retries 10, minTimeout 1 s) reading through five 500s: six attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnections', count: 5 });
      const schedule = nodeRetry({ minMs: 1_000, factor: 2, randomize: false }, seeded(1351));
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), schedule, 10));
    },
  },
  // "Clients retry with growing intervals": MicroProfile Fault Tolerance's @Retry(maxRetries = 3,
  // delay = 1000, jitter = 200): about one second every time, four reads each through three 500s.
  {
    does: 'is a Quarkus bean with MicroProfile @Retry(maxRetries = 3, delay = 1000, jitter = 200) reading four paths each through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const schedule = microProfile(seeded(1352));
      await readsThrough(t, auth(t), sleeper(t), { schedule, failures: 3, max: 3, ops: 4 });
    },
  },
  // "growing intervals and slight random spread": a Trigger.dev task with randomize: false, so every run
  // waits exactly 1000 then 1800 ms.
  {
    does: 'is a Trigger.dev task with randomize: false (1000, 1800 ms every time) reading three paths each through two 500s',
    fails: ['retry.spread'],
    async run(t) {
      const schedule = triggerDev({ factor: 1.8, minMs: 1_000, maxMs: 10_000, randomize: false }, seeded(1353));
      await readsThrough(t, auth(t), sleeper(t), { schedule, failures: 2, max: 3, from: 2 });
    },
  },
  // "retry only after rate_limited and internal": a Cloud Tasks HTTP-target task is dispatched again on
  // any non-2xx, so a create refused 400 (a one-character scopeLabel) is sent again under the task name.
  {
    does: 'is a Google Cloud Tasks HTTP-target task (key: the task name) dispatched again after a 400 on any non-2xx, at 1, 2 and 4 s',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Q' };
      const key = 'projects.p.locations.eu.queues.venues.tasks.7731';
      const r = await loop(
        sleeper(t),
        () => createWith(t, a, body, key),
        (n) => 1_000 * 2 ** n,
        3,
        (x) => x.status !== 200,
      );
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // "A sample client makes up to 4 attempts": an Inngest function on its default retries (4, so five
  // attempts) for a create through four 500s.
  {
    does: 'is an Inngest function on its default retries: 4 (five attempts) creating through four 500s under its step key',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 4 });
      const body = { ...CONNECTION, scopeLabel: 'Inngest Default Diner' };
      const key = '01JDQAAB3F7H9K2M4P6R8T0V1W:create-connection';
      ok('step', await loop(sleeper(t), () => createWith(t, a, body, key), inngestBackoff(seeded(1355)), 4));
    },
  },
  // "A sample client makes up to 4 attempts": a Kubernetes operator (controller-runtime) whose Reconcile
  // returns the error, so the workqueue requeues the item after 5, 10, 20 ... ms with no attempt limit.
  {
    does: 'is a Kubernetes operator on controller-runtime requeuing a failed create after 5, 10, 20, 40, 80, 160 ms (no attempt limit), key from the resource UID',
    // Waits under 50 ms are no waits to the rules ("two waits under 50 ms count as none"): 5, 10, 20 and
    // 40 ms are immediate retries as well as too many.
    fails: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 6 });
      const body = { ...CONNECTION, scopeLabel: 'Operator Oven' };
      const key = 'k8s-uid-3f9c2a71-5b0e-4d8e-9a1f-0c6b7e2d4f11';
      ok('reconcile', await loop(sleeper(t), () => createWith(t, a, body, key), workqueueBackoff, 10));
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": an opossum breaker with timeout 3000 and
  // abortController aborts a held create; the wrapped action makes its key inside, so the retry has a new one.
  {
    does: 'wraps its create in an opossum breaker (timeout 3000, abortController) whose action makes the key inside, so the retry after the abort has a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1357);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 20_000, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Opossum Oyster House' };
      const first = await api(t, a, 'POST', '/connections', { body, key: uuid(random), timeoutMs: 3_000 });
      if (first.status !== 0) throw new Error(`answered ${first.status}`);
      await sleeper(t)(800 + Math.floor(random() * 250));
      ok('retry', await createWith(t, a, body, uuid(random)));
    },
  },
  // "Modifying calls are repeat-safe": a Restate handler that makes its key with crypto.randomUUID()
  // (not ctx.rand), so the journal replay on another pod after a crash sends the create under a new key.
  {
    does: 'is a Restate handler making its key with crypto.randomUUID() instead of ctx.rand, so the replay after its pod died sends the held create under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const random = seeded(1358);
      const body = { ...CONNECTION, scopeLabel: 'Replay Ramen' };
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const first = await createWith(t, auth(t), body, uuid(random));
      if (first.status !== 0) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_500);
      ok('replay', await createWith(t, auth(t), body, uuid(random)));
    },
  },
  // "respect the wait time of the response": a Go singleflight group that Forgets the key on error, so
  // the six goroutines waiting on the refused call each retry it on their own 200 ms later.
  {
    does: 'coalesces six reads with singleflight but Forgets on error, so after a 429 (Retry-After: 2) each goroutine retries on its own 200 ms later',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 2, count: 1 });
      const shared = get(t, a, '/capabilities');
      const answers = await Promise.all(Array.from({ length: 6 }, () => shared));
      if (answers[0]?.status !== 429) throw new Error(`answered ${answers[0]?.status}`);
      await sleeper(t)(200);
      for (const r of await Promise.all(answers.map(() => get(t, a, '/capabilities')))) ok('retry', r);
    },
  },
  // "Clients retry with growing intervals": ofetch's retryDelay is a constant, not a schedule.
  {
    does: 'is an ofetch client with retry: 3, retryDelay: 500 (a constant half second) reading through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 3 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connectors'),
          () => 500,
          3,
        ),
      );
    },
  },
];
