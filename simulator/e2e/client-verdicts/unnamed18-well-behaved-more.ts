import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { cloudflareQueue, denoKvSchedule, jetStream, pulsarNack } from './unnamed18-kit.ts';

/**
 * Round 18, more well-behaved clients (Durable Functions, Cloudflare Queues, Deno KV, NATS JetStream,
 * Pulsar, Nginx njs, APScheduler, Celery beat, Drupal queues, EventBridge connections). Each must get no `fail`.
 */
export const WELL_BEHAVED_MORE_18: UnnamedClient2[] = [
  // "the same key with the same content returns the same response again": an Azure Durable Functions
  // orchestrator takes its key from context.NewGuid() (deterministic across replays) and CallHttpAsync with
  // RetryOptions(1 s, backoff coefficient 2, 4 attempts) sends it again after the connection dropped.
  {
    does: 'is an Azure Durable Functions orchestrator keying a create by context.NewGuid() (replay-stable), retried by RetryOptions(1 s, x2) after a dropped connection after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const key = uuid(seeded(1811));
      const body = { ...CONNECTION, scopeLabel: 'Orchestrator Oyster Hut' };
      replayed(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, key),
          (n) => 1_000 * 2 ** n,
          3,
        ),
      );
    },
  },
  // "respect the wait time of the response": the orchestrator waits out a 429 on a durable timer
  // (context.CreateTimer(now + Retry-After)) and calls again with the same replay-stable key.
  {
    does: 'is a Durable Functions orchestrator waiting a 429’s Retry-After (4 s) on a durable timer, then creating again under its replay-stable key',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 4, count: 1 });
      const key = uuid(seeded(1812));
      const body = { ...CONNECTION, scopeLabel: 'Durable Dumpling Den' };
      ok(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, key),
          (_n, r) => r.retryAfterMs,
          3,
        ),
      );
    },
  },
  // "Idempotency-Key ... 8 to 128 characters of letters, digits, dot, underscore, colon, hyphen" and the
  // same key on a retry: a Cloudflare Queues consumer keys a create by message.id and calls
  // message.retry({ delaySeconds: 2 ** message.attempts }) after each 500 (max_retries 3).
  {
    does: 'is a Cloudflare Queues consumer keying a create by message.id, message.retry({ delaySeconds: 2 ** attempts }) after two 500s',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const key = `cfq:${uuid(seeded(1813)).replaceAll('-', '')}`;
      const body = { ...CONNECTION, scopeLabel: 'Queue Quesadilla' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, key), cloudflareQueue, 3));
    },
  },
  // "the same key with the same content": a Deno KV queue listener whose enqueued message carries its key;
  // the runtime redelivers on its backoffSchedule [1000, 5000, 10000] after the handler threw on a drop.
  {
    does: 'is a Deno KV listenQueue handler whose enqueued message carries its key, redelivered on backoffSchedule [1000, 5000, 10000] after a drop after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const key = `kvq_${uuid(seeded(1814))}`;
      const body = { ...CONNECTION, scopeLabel: 'Kv Kebab Kiosk' };
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, key), denoKvSchedule, 3));
    },
  },
  // "respect the wait time of the response": a NATS JetStream consumer (BackOff [1s, 5s, 30s], MaxDeliver 4)
  // naks with a delay raised to the 429's Retry-After, keyed by the stream sequence.
  {
    does: 'is a NATS JetStream consumer keying a create by stream sequence, NakWithDelay(max(BackOff, Retry-After)) after a 429 (Retry-After 3 s)',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 3, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Jetstream Jerk Shack' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'venues.seq.000000771'), jetStream, 3));
    },
  },
  // "A sample client makes up to 4 attempts": a Pulsar Function checking a capability per message, negative
  // acks redelivered on MultiplierRedeliveryBackoff(1 s, x2), a dead-letter policy of 3 redeliveries.
  {
    does: 'is a Pulsar Function checking a capability per message, nacked through two 500s with MultiplierRedeliveryBackoff(1 s, x2)',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'checkCapability', count: 2 });
      const body = { connectorId: CONNECTION.connectorId, capability: 'payments.refund', environment: 'sandbox' };
      ok('check', await loop(sleeper(t), () => api(t, a, 'POST', '/capabilities', { body }), pulsarNack, 3));
    },
  },
  // "Tokens are short-lived and are renewed, not extended": an Nginx njs js_periodic handler keeps its
  // token in a js_shared_dict_zone and renews it when less than 5 minutes of its 15 are left, polling every minute.
  {
    does: 'is an Nginx njs js_periodic poller keeping a 15-minute token in js_shared_dict_zone, renewed with 5 minutes left, polling every 60 s for 40 minutes',
    pass: ['auth.token-reused'],
    async run(t) {
      let a = auth(t, undefined, 900);
      let issued = 0;
      for (let minute = 0; minute < 40; minute++) {
        if (minute - issued >= 10) {
          a = auth(t, undefined, 900);
          issued = minute;
        }
        ok(`minute ${minute}`, await get(t, a, '/connections'));
        await sleeper(t)(60_000);
      }
    },
  },
  // "A read polled at a steady cadence is polling" (the rules' reading): APScheduler's
  // IntervalTrigger(seconds=30, jitter=5) keeps its cadence through one 500 and never retries in between.
  {
    does: 'is an APScheduler IntervalTrigger(seconds=30, jitter=5) job polling the connections, one tick answered 500, the cadence kept',
    pass: [],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      const random = seeded(1817);
      for (let tick = 0; tick < 8; tick++) {
        if (tick === 4) fault(t, { kind: 'internal', route: 'listConnections', count: 1 });
        await get(t, a, '/connections');
        await sleeper(t)(30_000 + Math.round((random() * 2 - 1) * 5_000));
      }
    },
  },
  // "respect the wait time of the response": a Celery beat task every 60 s that, after a 429 with
  // Retry-After 90, stores a cool-down in Redis and skips the beats until it has passed (the next call 120 s on).
  {
    does: 'is a Celery beat task every 60 s that stores a 429’s Retry-After (90 s) as a Redis cool-down and skips beats until it passed',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      let coolUntil = 0;
      let now = 0;
      for (let beat = 0; beat < 6; beat++) {
        if (beat === 2) fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 90, count: 1 });
        if (now >= coolUntil) {
          const r = await get(t, a, '/providers');
          if (r.status === 429) coolUntil = now + r.retryAfterMs;
        }
        await sleeper(t)(60_000);
        now += 60_000;
      }
    },
  },
  // "respect the wait time of the response" and the same key: a Drupal QueueWorker throws
  // DelayedRequeueException(Retry-After) after a 429; the item carries the key it was created with.
  {
    does: 'is a Drupal QueueWorker throwing DelayedRequeueException(Retry-After 5 s) after a 429, the queue item carrying its Idempotency-Key',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 5, count: 1 });
      const item = {
        key: `drupal-queue-item-${uuid(seeded(1819)).slice(0, 8)}`,
        body: { ...CONNECTION, scopeLabel: 'Node Noodle Bar' },
      };
      ok(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, item.body, item.key),
          (_n, r) => r.retryAfterMs,
          3,
        ),
      );
    },
  },
  // "unauthorized ... remedy: request a new access token": an EventBridge connection (OAuth client
  // credentials) renews its token when the API destination is answered 401 after expiry, and calls again.
  {
    does: 'is an EventBridge API destination whose connection fetches a new OAuth token after a 401 of an expired one, the invocation then answered',
    pass: [],
    async run(t) {
      const old = auth(t, undefined, 60);
      ok('fresh', await get(t, old, '/capabilities'));
      await sleeper(t)(61_000);
      const r = await get(t, old, '/capabilities');
      if (r.status !== 401) throw new Error(`answered ${r.status}`);
      await sleeper(t)(300);
      ok('renewed', await get(t, auth(t, undefined, 3_600), '/capabilities'));
    },
  },
];
