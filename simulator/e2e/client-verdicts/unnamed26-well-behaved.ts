import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import {
  atLeastRetryAfter,
  bazelBackoff,
  effectJittered,
  massTransitExponential,
  nsbDelayed,
  quartzReschedule,
  tanstackDelay,
} from './unnamed26-kit.ts';

/**
 * Round 26, well-behaved clients of stacks no earlier round used. Each must get no `fail`; the interface
 * sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_26: UnnamedClient2[] = [
  // "growing intervals and slight random spread": Effect-TS `Effect.retry` with
  // `Schedule.exponential("500 millis").pipe(Schedule.jittered, Schedule.intersect(Schedule.recurs(3)))`.
  {
    does: 'is an Effect-TS program retrying three reads with Schedule.exponential(500 ms).pipe(Schedule.jittered) and recurs(3), each through three 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: effectJittered(seeded(2601)), failures: 3, max: 3 });
    },
  },
  // "the same key with the same content returns the same response again": the key is yielded in
  // `Effect.gen` before `Effect.retry` wraps the call, so every attempt carries it; a 429's Retry-After (2 s)
  // is honoured by a schedule that reads the answer (`Schedule.recurWhile` + `Schedule.delayed`).
  {
    does: 'is an Effect-TS create whose key is made before Effect.retry, through a 429 (Retry-After 2 s, honoured) and a 500',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Effect Empanadas' };
      const own = effectJittered(seeded(2602));
      ok(
        'create',
        await loop(sleeper(t), () => createWith(t, a, body, 'effect-fiber-8c1d2e3f'), atLeastRetryAfter(own), 3),
      );
    },
  },
  // "slight random spread": Bazel's remote-cache Retrier, 100 ms doubling with ±10 % jitter: a spread of a few
  // ms at the first position, tens at the third.
  {
    does: 'is a Bazel remote-cache Retrier (100 ms, x2, jitter 0.1, --remote_retries=3), three reads each through three 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: bazelBackoff(seeded(2603)), failures: 3, max: 3, from: 1 });
    },
  },
  // "Idempotency keys reused on retries": a MassTransit consumer creates the connection under the message's
  // MessageId; UseMessageRetry(Exponential 3, 1 s, 30 s, 2 s) redelivers it in memory through two 500s.
  {
    does: 'is a MassTransit consumer keyed by the MessageId, UseMessageRetry(Exponential(3, 1 s, 30 s, 2 s)) through two 500s, on two messages',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const wait = massTransitExponential(seeded(2604));
      for (const [i, label] of ['Transit Tapas', 'Transit Tagine'].entries()) {
        fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
        const key = `masstransit-msg-0a7f${i}c2e-91d4`;
        ok(label, await loop(sleeper(t), () => createWith(t, a, { ...CONNECTION, scopeLabel: label }, key), wait, 3));
        await sleeper(t)(10_000);
      }
    },
  },
  // "growing intervals and slight random spread": TanStack Query's `prefetchQuery` on a Node server (retry 3,
  // retryDelay doubling from 1 s plus up to 300 ms).
  {
    does: 'is TanStack Query prefetching on a Node server (retry 3, retryDelay min(1000 * 2^n, 30000) + rand(300)), three reads through two 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: tanstackDelay(seeded(2605)), failures: 2, max: 3, from: 2 });
    },
  },
  // "Idempotency keys reused on retries": NServiceBus with immediate retries off and a custom delayed
  // policy (5 s x (n + 1) plus up to 1 s); the handler's key is the message id, kept across deliveries.
  {
    does: 'is an NServiceBus handler (immediate retries off, delayed 5 s x (n + 1) + rand 1 s) creating under the message id through a dropped connection past the commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Bus Biryani' };
      replayed(
        'create',
        await loop(sleeper(t), () => createWith(t, a, body, 'nsb-msg-5e0c9a77-conn'), nsbDelayed(seeded(2606)), 3),
      );
    },
  },
  // "the same key with the same content": a Quartz job keeps its key in the JobDataMap and reschedules
  // itself (2^n s + rand 500 ms) after a 500 or a 503; the webhook it registers is one operation.
  {
    does: 'is a Quartz job keeping its key in the JobDataMap, rescheduling itself (2^n s + rand 500 ms) through a 500 and a 503, registering a webhook',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createWebhook', count: 1 });
      fault(t, { kind: 'unavailable', route: 'createWebhook', retryAfterSeconds: 1, count: 1 });
      const body = { url: 'http://127.0.0.1:9/hooks/quartz', events: ['order.paid'] };
      ok(
        'hook',
        await loop(
          sleeper(t),
          () => api(t, a, 'POST', '/webhooks', { body, key: 'quartz-job-hooks-0193' }),
          atLeastRetryAfter(quartzReschedule(seeded(2607))),
          3,
        ),
      );
    },
  },
  // "Retry guidance: retry only after rate_limited and internal": TanStack Query's `retry: (n, e) =>
  // e.status >= 500 && n < 3` on a read the tenant may not see: a 404 is not retried, the next read goes on.
  {
    does: 'is TanStack Query with retry only for 5xx: a read of one connection by id answered 404 is dropped, the providers read after it retried through a 500',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const one = await get(t, a, '/connections/conn_missing_7732');
      if (one.status !== 404) throw new Error(`answered ${one.status}`);
      fault(t, { kind: 'internal', route: 'listProviders', count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), tanstackDelay(seeded(2608)), 3));
    },
  },
];
