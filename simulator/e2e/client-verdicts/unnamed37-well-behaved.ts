import { auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { ALL_TENANTS, TENANTS } from './unnamed30-kit.ts';
import { decorrelatedV2, janetSleep, openFaasWait, perTenantTokens, ponyTimer, vSleep } from './unnamed37-kit.ts';
import { WELL_BEHAVED_37_MORE } from './unnamed37-well-behaved-more.ts';

/**
 * Round 37, well-behaved clients of stacks no earlier round used (Pony, V, Janet, OpenFaaS told
 * max_retry_attempts, Brighter with the command built once, an integrator's per-tenant token cache with
 * tenants read at different rates). Each must get no `fail`; the interface sentence that makes it legal is
 * quoted above it.
 */
export const WELL_BEHAVED_37: UnnamedClient2[] = [
  // "growing intervals and slight random spread": a Pony actor re-arms a Timer for each retry, its Rand
  // seeded from Time.nanos() when the actor is created.
  {
    does: 'is a Pony actor re-arming a Timer of (500_000_000 << n) + rand.int(250_000_000) ns, three reads through three 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: ponyTimer(seeded(3701)), failures: 3, max: 3 }),
  },
  // "respect the wait time of the response": V reads Retry-After as seconds (`* time.second`) and sleeps the
  // larger of it and its own backoff.
  {
    does: 'is a V net.http loop sleeping time.Duration(max(retry_after * time.second, backoff)) through two 429s (Retry-After 2)',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), vSleep(seeded(3702)), 3));
    },
  },
  // "the same key with the same content returns the same response again": the Janet script binds its key
  // with (def key ...) before the loop; (os/sleep) takes seconds as a float.
  {
    does: 'is a Janet script (def key ...) before its loop, retrying a create through two 500s with (os/sleep (+ (* 0.5 (math/pow 2 n)) (* 0.25 (math/random))))',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Janet Jollof' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'janet-op-1'), janetSleep(seeded(3703)), 3));
    },
  },
  // "up to 4 attempts": an OpenFaaS async function (key: its X-Call-Id) answering 503 when the create
  // failed, so the queue-worker retries it; max_retry_attempts set to 3, waits 10 s, 20 s, 40 s.
  {
    does: 'is an OpenFaaS async function keyed by its X-Call-Id, answering 503 on a failed create so the queue-worker (max_retry_attempts 3, initial_retry_wait 10s) invokes it again, through three 500s',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 3 });
      const body = { ...CONNECTION, scopeLabel: 'Faas Falafel' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'call-3f1c9a77'), openFaasWait, 3));
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": Brighter's command (its Id the key) is
  // built once, outside the lambda the Polly policy runs again.
  {
    does: 'is a Brighter command processor whose command (Id = Guid.NewGuid(), sent as the key) is built once outside the Polly WaitAndRetry (DecorrelatedJitterBackoffV2, 500 ms) lambda, through two 500s',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Brighter Bao' };
      const key = 'b7d1e0c4-5a1f-4c2e-9d3b-2f6a8e1c0b37';
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, key), decorrelatedV2(seeded(3705)), 3));
    },
  },
  // "renewed, not extended": an integrator's token cache keyed by tenant, each entry renewed once fewer than
  // 60 s are left of its 10 minutes; the busy tenant is read every 10 or 20 s, the two quiet ones every 2 minutes.
  {
    does: 'is an integrator with a token cache keyed by tenant (10-minute tokens renewed under 60 s left), its busy tenant read every 10 or 20 s and two quiet ones every 2 minutes in turn, for 25 minutes',
    pass: ['auth.token-reused'],
    options: ALL_TENANTS,
    async run(t) {
      const token = perTenantTokens(t, 600, (leftMs) => leftMs > 60_000);
      for (let i = 0; i < 150; i++) {
        const tenant = i % 6 === 0 ? (TENANTS[1 + ((i / 6) % 2)] ?? TENANTS[1]) : TENANTS[0];
        ok('read', await get(t, token(tenant), '/connectors'));
        await sleeper(t)(10_000);
      }
    },
  },
  ...WELL_BEHAVED_37_MORE,
];
