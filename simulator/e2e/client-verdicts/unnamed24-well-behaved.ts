import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import {
  delayedJob,
  lestrratExponential,
  messengerMultiplier,
  mojoTimer,
  plsqlSleep,
  podsThrough,
  robloxWait,
} from './unnamed24-kit.ts';

/**
 * Round 24, well-behaved clients of stacks no earlier round used. Each must get no `fail`; the interface
 * sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_24: UnnamedClient2[] = [
  // "the same key with the same content returns the same response again": a Symfony Messenger handler keys
  // its create with the envelope's message id; MultiplierRetryStrategy (jitter 0.1) redelivers it twice.
  {
    does: 'is a Symfony Messenger handler keying its create with the message id, redelivered by MultiplierRetryStrategy (1 s x2, jitter 0.1) through two 500s',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Messenger Moussaka' };
      const wait = messengerMultiplier(seeded(2401));
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'messenger-msg-01J9X4Q2'), wait, 3));
    },
  },
  // "growing intervals and slight random spread": the same strategy on three reads, each through two 500s.
  {
    does: 'is a Symfony Messenger worker whose reads (three, each through two 500s) are retried by MultiplierRetryStrategy with jitter 0.1',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: messengerMultiplier(seeded(2402)), failures: 2, max: 3 });
    },
  },
  // "retry only after rate_limited and internal ... up to 4 attempts": a Delayed::Job (max_attempts 4) whose
  // default reschedule waits 6 s, 21 s, 86 s, through three 500s.
  {
    does: 'is a Rails Delayed::Job with max_attempts 4 reading connectors through three 500s (6 s, 21 s, 86 s)',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 3 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), delayedJob, 3));
    },
  },
  // "growing intervals and slight random spread": lestrrat-go/backoff Exponential (500 ms, x2, jitter 0.2).
  {
    does: 'is a Go service on lestrrat-go/backoff (500 ms, x2, jitter factor 0.2, 3 retries) with three reads each through two 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), {
        schedule: lestrratExponential(seeded(2404)),
        failures: 2,
        max: 3,
        from: 2,
      });
    },
  },
  // "the same key with the same content": a Perl Mojo::UserAgent client re-sending the same transaction's
  // request (headers kept) from an IOLoop timer after the connection dropped past the commit.
  {
    does: 'is a Perl Mojo::UserAgent client re-sending a create with its key from an IOLoop timer after the connection dropped past the commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Mojo Moqueca' };
      replayed(
        'create',
        await loop(sleeper(t), () => createWith(t, a, body, 'mojo-ua-3f1c9e-create'), mojoTimer(seeded(2405)), 3),
      );
    },
  },
  // "respect the wait time of the response": a PL/SQL job (DBMS_SCHEDULER) sleeping the larger of a 429's
  // Retry-After (4 s) and its own draw, then its own after a 500.
  {
    does: 'is an Oracle PL/SQL job on UTL_HTTP sleeping a 429’s Retry-After of 4 s, then POWER(2, n) plus a draw after a 500',
    pass: ['retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 4, count: 1 });
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/capabilities'), plsqlSleep(seeded(2406)), 3));
    },
  },
  // "growing intervals and slight random spread": a Roblox game server (HttpService from a server Script,
  // never the player's client) waiting `2^n + math.random()` s, three reads through two 500s.
  {
    does: 'is a Roblox game server Script on HttpService waiting 2^n + math.random() s, three reads each through two 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: robloxWait(seeded(2407)), failures: 2, max: 3 });
    },
  },
  // "Clients retry with growing intervals and slight random spread": four pods of one client, each seeded
  // from its own pod name, read one path through two 500s at the same moment: their waits differ.
  {
    does: 'runs four pods (a token each) seeding their lestrrat-go jitter from their pod names, all reading connectors through two 500s at once',
    pass: ['retry.attempt-limit'],
    async run(t) {
      fault(t, { kind: 'internal', route: 'listConnectors', count: 8 });
      await podsThrough(t, {
        pods: 4,
        path: '/connectors',
        seedOf: (pod) => seeded(2408 + pod * 7919),
        schedule: lestrratExponential,
      });
    },
  },
  // "Modifying calls are repeat-safe": POST /idempotency-keys changes nothing the key guards (no key is asked
  // for), so a PL/SQL job retries it after 500s without one, then creates under the key it got.
  {
    does: 'is a PL/SQL job retrying POST /idempotency-keys (no key asked for) through two 500s, then creating under the key it was given',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: '/api/public/v1/idempotency-keys', count: 2 });
      const issued = ok(
        'key',
        await loop(
          sleeper(t),
          () => api(t, a, 'POST', '/idempotency-keys', { body: { operation: 'connection.create' } }),
          plsqlSleep(seeded(2409)),
          3,
        ),
      );
      const key = String(issued.json?.data?.idempotencyKey ?? '');
      ok('create', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Oracle Orecchiette' }, key));
    },
  },
];
