import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import {
  backonJitter,
  dexadorSleep,
  failsafeBackoff,
  juliaBackoff,
  npmFullJitter,
  obanBackoff,
  readsOn,
} from './unnamed25-kit.ts';

/**
 * Round 25, well-behaved clients of stacks no earlier round used. Each must get no `fail`; the interface
 * sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_25: UnnamedClient2[] = [
  // "the same key with the same content returns the same response again": a Java service wraps its create in
  // Failsafe (withBackoff 500 ms..10 s, x2, jitter 0.25); the key is made before `Failsafe.with(policy).get`.
  {
    does: 'is a Java service on Failsafe (withBackoff 500 ms, x2, jitter 0.25) retrying a create under the key made outside the policy, through two 500s',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Failsafe Fondue' };
      ok(
        'create',
        await loop(sleeper(t), () => createWith(t, a, body, 'failsafe-3b8e0c1d'), failsafeBackoff(seeded(2501)), 3),
      );
    },
  },
  // "growing intervals and slight random spread": the same Failsafe policy on three reads through two 500s.
  {
    does: 'is a Java service on Failsafe (withBackoff 500 ms, x2, jitter 0.25) with three reads each through two 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: failsafeBackoff(seeded(2502)), failures: 2, max: 3 });
    },
  },
  // "growing intervals and slight random spread": Rust backon's ExponentialBuilder with jitter (adds up to the
  // whole current delay), three reads through three 500s.
  {
    does: 'is a Rust service on backon ExponentialBuilder::default().with_jitter() (1 s, x2, up to +100 %) with three reads each through three 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: backonJitter(seeded(2503)), failures: 3, max: 3, from: 1 });
    },
  },
  // "growing intervals and slight random spread": Julia HTTP.jl's retry with ExponentialBackOff (200 ms, x3,
  // jitter 0.1): short waits, growing fast, spread by only ±10 %.
  {
    does: 'is a Julia HTTP.jl client retrying with ExponentialBackOff(first_delay 0.2, factor 3, jitter 0.1), three reads each through three 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: juliaBackoff(seeded(2504)), failures: 3, max: 3 });
    },
  },
  // "the same key with the same content": an Oban job carries its key in its args; the create's connection
  // dropped past the commit, and Oban runs the job again after its default backoff (16-45 s).
  {
    does: 'is an Elixir Oban job carrying its key in its args, run again after Oban’s default backoff (1^4 + 15 + rand(30) s) when the create’s connection dropped past the commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Oban Okonomiyaki' };
      replayed(
        'create',
        await loop(sleeper(t), () => createWith(t, a, body, 'oban-job-48213-conn'), obanBackoff(seeded(2505)), 3),
      );
    },
  },
  // "growing intervals and slight random spread": the npm exponential-backoff package with full jitter.
  {
    does: 'is a Node worker on the exponential-backoff package (startingDelay 500, timeMultiple 2, jitter full), four reads each through three 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: npmFullJitter(seeded(2506)), failures: 3, max: 3, ops: 4 });
    },
  },
  // "respect the wait time of the response": a Common Lisp dexador loop sleeping the larger of Retry-After and
  // its own `2^n + random 0.5`, through a 429 (Retry-After 3) and a 500.
  {
    does: 'is a Common Lisp dexador handler-bind loop sleeping the larger of a 429’s Retry-After (3 s) and 2^n + (random 0.5) s, then after a 500',
    pass: ['retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 3, count: 1 });
      fault(t, { kind: 'internal', route: 'listConnections', count: 1 });
      const own = dexadorSleep(seeded(2507));
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connections'),
          (n, r) => Math.max(r.retryAfterMs, own(n)),
          3,
        ),
      );
    },
  },
  // "respect the wait time of the response": a Flurl client honours a 429's Retry-After of 150 s, longer than
  // the 120 s a retry is usually looked for in.
  {
    does: 'is a .NET Flurl client honouring a 429’s Retry-After of 150 s on a read, then succeeding',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 150, count: 1 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/capabilities'),
          (_n, r) => r.retryAfterMs,
          2,
        ),
      );
    },
  },
  // "the same key with the same content": an Oban job registering a webhook receiver, its key in the job
  // args, through a 500; the signing key it is issued once is stored at once.
  {
    does: 'is an Oban job registering a webhook receiver under the key in its args, through one 500',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createWebhook', count: 1 });
      const body = { url: 'http://127.0.0.1:9/hooks/oban', events: ['order.created', 'order.paid'] };
      ok(
        'hook',
        await loop(
          sleeper(t),
          () => api(t, a, 'POST', '/webhooks', { body, key: 'oban-job-48214-hook' }),
          obanBackoff(seeded(2509)),
          3,
        ),
      );
    },
  },
  // "Retry guidance: retry only after rate_limited and internal": a Failsafe policy `handleResultIf` 429 and
  // 5xx only; a capability check answered 409-free but a create refused 400 is not retried, the next
  // operation (a corrected create under a new key) is sent.
  {
    does: 'is a Failsafe policy that aborts on 4xx: a create refused 400 is not retried; the corrected create goes under a new key',
    pass: [],
    async run(t) {
      const a = auth(t);
      const bad = await createWith(t, a, { ...CONNECTION, scopeLabel: 'x' }, 'failsafe-bad-71c0e2a9');
      if (bad.status !== 400) throw new Error(`answered ${bad.status}`);
      await sleeper(t)(1_500);
      ok('fixed', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Failsafe Fixed' }, 'failsafe-fix-0a9d33e1'));
    },
  },
];
