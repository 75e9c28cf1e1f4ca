import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { fleet, guidanceWait } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';
import { stampedKey } from './unnamed10-kit.ts';

/**
 * Round 10, more misbehaving clients (worker pools on one token, stamped keys, a webhook registration):
 * each breaks one duty and must fail exactly that rule, with evidence.
 */
export const MISBEHAVING_MORE_10: FaultyClient[] = [
  // "A sample client makes up to 4 attempts": a pool on one token (one process to the rules, and to the
  // service's rate limit) whose worker gives up a read after its 4 attempts and requeues it; another
  // worker takes it 5 s later and makes 4 attempts more: 8 attempts of one read by one process.
  {
    does: 'runs a worker pool on one token that requeues a read after its worker’s 4 attempts failed; another worker takes it 5 s later and makes 4 more (8 attempts)',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 7 });
      const queue = ['/capabilities'];
      await fleet(
        t,
        [0, 1].map((w) => async (sleep) => {
          const random = seeded(1060 + w);
          for (let tries = 0; tries < 30 && queue.length === 0; tries++) await sleep(1_000);
          const path = queue.shift();
          if (!path) return;
          const r = await retrying(sleep, () => get(t, a, path), guidanceWait(random));
          if (r.status !== 200) {
            await sleep(5_000);
            queue.push(path);
          }
        }),
        [0, 10],
      );
    },
  },
  // "respect the wait time of the response": the pool's worker refused 429 (Retry-After: 2) on a create
  // requeues the job with its key; another worker takes it 250 ms later, key and content unchanged.
  {
    does: 'runs a worker pool on one token that requeues a create refused 429 (Retry-After: 2) with its key; another worker sends it 250 ms later',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      const job = { key: 'job-7781-create', body: { ...CONNECTION, scopeLabel: 'Requeued Ramen' } };
      let requeued = false;
      await fleet(
        t,
        [
          async () => {
            requeued = (await api(t, a, 'POST', '/connections', job)).status === 429;
          },
          async (sleep) => {
            await sleep(250);
            if (requeued) ok('retry', await api(t, a, 'POST', '/connections', job));
          },
        ],
        [0, 0],
      );
      if (!requeued) throw new Error('the create was not refused');
    },
  },
  // "A sample client makes up to 4 attempts": an SDK stamping a fresh Idempotency-Key on every POST
  // does not make each attempt of a capability check a new operation (the key means nothing there).
  {
    does: 'stamps a fresh Idempotency-Key on every POST and retries a capability check through five 500s: six attempts, each under its own key',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1062);
      fault(t, { kind: 'internal', route: 'checkCapability', count: 5 });
      const body = { connectorId: CONNECTION.connectorId, capability: 'payments.refund' };
      ok(
        'check',
        await retrying(
          sleeper(t),
          () => api(t, a, 'POST', '/capabilities', { body, key: stampedKey(random, 'sdk') }),
          guidanceWait(random),
          { max: 5 },
        ),
      );
    },
  },
  // "the same key with the same content returns the same response again": a webhook registration
  // (a route that requires a key) committed then answered 500, registered again under a new key.
  {
    does: 'registers a webhook receiver, is answered 500 (the registration committed), and registers it again 1 s later under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createWebhook', failWith: 'internal', count: 1 });
      const body = { url: 'http://127.0.0.1:9/hooks/orders', events: ['order.created', 'order.paid'] };
      const first = await api(t, a, 'POST', '/webhooks', { body, key: 'hook-reg-0001' });
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_000);
      ok('again', await api(t, a, 'POST', '/webhooks', { body, key: 'hook-reg-0002' }));
    },
  },
];
