import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import {
  asynqDelay,
  cockatielDecorrelated,
  graphileWorker,
  hatchet,
  heimdall,
  pgBoss,
  pubSubPush,
  rqIntervals,
} from './unnamed19-kit.ts';

/**
 * Round 19, well-behaved clients (cockatiel, graphile-worker, asynq, rq, pg-boss, heimdall, Hatchet, Pub/Sub
 * push). Each must get no `fail`; the interface sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_19: UnnamedClient2[] = [
  // "Clients retry with growing intervals and slight random spread": cockatiel's ExponentialBackoff draws
  // decorrelated jitter from 128 ms upward.
  {
    does: 'is a cockatiel retry policy (ExponentialBackoff, decorrelated jitter from 128 ms, maxAttempts 3), three reads each through two 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), {
        schedule: cockatielDecorrelated(seeded(1901)),
        failures: 2,
        max: 3,
      });
    },
  },
  // "the same key with the same content returns the same response again": a graphile-worker task keyed by its
  // job key, run again after exp(attempts) seconds when its create got a 500 after commit.
  {
    does: 'is a graphile-worker task keying its create by the job key, run again after exp(1) s when the create got a 500 after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Graphile Gelato Bar' };
      replayed(
        'create',
        await loop(sleeper(t), () => createWith(t, a, body, 'gw-job:create-venue:0019'), graphileWorker, 3),
      );
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": an asynq task whose TaskID is the key, retried
  // by DefaultRetryDelayFunc (15 s and more) after a gateway 503 after commit.
  {
    does: 'is an asynq task (TaskID as Idempotency-Key) retried after DefaultRetryDelayFunc’s 15-45 s when its create got a 503 after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'unavailable', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Asynq Arepa Stand' };
      const key = `asynq:${uuid(seeded(1903))}`;
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, key), asynqDelay(seeded(1913)), 3));
    },
  },
  // "the same key with the same content": an rq job (Retry(max=3, interval=[10, 30, 60])) keyed by job.id,
  // whose connection was dropped after the create committed.
  {
    does: 'is an rq job with Retry(max=3, interval=[10, 30, 60]) keyed by job.id, re-run 10 s after its create’s connection dropped after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Redis Queue Ramen' };
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, 'rq:job:7d1f3c2a-19'), rqIntervals, 3));
    },
  },
  // "retry only after rate_limited and internal": a pg-boss job (retryBackoff) posting a capability check
  // through two 500s.
  {
    does: 'is a pg-boss job (retryLimit 3, retryBackoff, retryDelay 1) posting a capability check through two 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'checkCapability', count: 2 });
      const body = { connectorId: CONNECTION.connectorId, capability: 'payments.refund' };
      ok('check', await loop(sleeper(t), () => api(t, a, 'POST', '/capabilities', { body }), pgBoss(seeded(1905)), 3));
    },
  },
  // "doubles the wait (500 ms times 2 to the power of the attempt number) plus a random amount up to 250 ms":
  // gojek's heimdall with NewExponentialBackoff(500 ms, 10 s, 2, 250 ms) and SetRetryCount(3).
  {
    does: 'is a gojek heimdall client (exponential 500 ms x2, max jitter 250 ms, SetRetryCount 3), three reads each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: heimdall(seeded(1906)), failures: 2, max: 3, from: 1 });
    },
  },
  // "Clients retry with growing intervals": a Hatchet step (retries=3, backoff_factor 2) reading the
  // connections through two 500s.
  {
    does: 'is a Hatchet step (retries=3, backoff_factor=2.0) reading the connections through two 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnections', count: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), hatchet, 3));
    },
  },
  // "retry only after rate_limited and internal": a Pub/Sub push endpoint keyed by message_id answers 500
  // when the create got a 500 (nothing committed); Pub/Sub redelivers after 10 s, then 20 s.
  {
    does: 'is a Pub/Sub push endpoint keying its create by message_id, redelivered after 10 s and 20 s (minimumBackoff 10s) through two 500s',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Push Subscription Pho' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'pubsub.msg.11937420518'), pubSubPush, 3));
    },
  },
  // "respect the wait time of the response": a River worker returning river.JobSnooze(retryAfter) on a 429,
  // so the job runs again, with its unique key, once the Retry-After has passed.
  {
    does: 'is a River (Go) worker snoozing its job for a 429’s Retry-After (3 s) and sending the create again under its unique-job key',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 3, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'River Job Rotisserie' };
      const wait = (_n: number, r: { retryAfterMs: number }) => r.retryAfterMs;
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'river-unique-0000019'), wait, 3));
    },
  },
  // "respect the wait time of the response, retry with growing intervals": NestJS HttpService with rxjs
  // retry({ count: 3, delay }) whose delay is the 429's Retry-After, else 500 ms * 2^n plus a draw.
  {
    does: 'is a NestJS HttpService with rxjs retry({count: 3, delay}) delaying by Retry-After (4 s) through two 429s',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1910);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 4, count: 2 });
      const wait = (n: number, r: { status: number; retryAfterMs: number }) =>
        r.status === 429 ? r.retryAfterMs : 500 * 2 ** n + Math.floor(random() * 250);
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors?category=pos'), wait, 3));
    },
  },
];
