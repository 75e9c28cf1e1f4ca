import type { Target } from '../harness.ts';
import { type Auth, api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { lestrratExponential, lockstep, PATHS } from './unnamed24-kit.ts';

/**
 * Round 24 probes: a job redelivered to a sibling pod while the first pod's 429 is still running, a retry
 * written with \u escapes, pods renewing their tokens at staggered times, threads drawing the same jitter.
 */

/** Pod A's keyed create is refused 429 (Retry-After 3); the queue redelivers it to pod B after `redeliverMs`. */
async function redelivered(t: Target, redeliverMs: number) {
  const podA = auth(t);
  const podB = auth(t);
  ok('pod A warm-up', await get(t, podA, '/providers'));
  ok('pod B warm-up', await get(t, podB, '/capabilities'));
  fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 3, count: 1 });
  const body = { ...CONNECTION, scopeLabel: 'Redelivered Ramen' };
  const key = 'job-5531-connect-venue';
  const first = await createWith(t, podA, body, key);
  if (first.status !== 429) throw new Error(`answered ${first.status}`);
  await sleeper(t)(redeliverMs);
  ok('pod B', await createWith(t, podB, body, key));
  await sleeper(t)(4_000);
  ok('pod A goes on', await get(t, podA, '/connectors'));
}

/** Pods started `staggerS` apart, a read each every 20 s, renewing `renew(pod, call, leftMs)` says when. */
async function staggeredPods(t: Target, renew: (pod: number, call: number, leftMs: number) => boolean) {
  const now = () => t.sandbox.state.clock.now();
  const pods: { a: Auth; expiresAt: number; calls: number }[] = [];
  for (let step = 0; step < 60; step++) {
    if (step % 5 === 0 && pods.length < 3)
      pods.push({ a: auth(t, undefined, 300), expiresAt: now() + 300_000, calls: 0 });
    for (const [i, pod] of pods.entries()) {
      if (renew(i, pod.calls, pod.expiresAt - now())) {
        pod.a = auth(t, undefined, 300);
        pod.expiresAt = now() + 300_000;
      }
      ok(`pod ${i}`, await get(t, pod.a, PATHS[(i + pod.calls) % PATHS.length] ?? '/providers'));
      pod.calls++;
    }
    await sleeper(t)(20_000);
  }
}

export const PROBES_WELL_BEHAVED_24: UnnamedClient2[] = [
  // "a failed create sent again by a sibling is its retry": the queue's visibility timeout is set from the
  // Retry-After, so pod B gets the job only once the 3 s are over, and sends it under the job's key.
  {
    does: 'has a create refused 429 (Retry-After 3) on pod A redelivered to pod B once the 3 s are over, under the job’s key',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      await redelivered(t, 3_200);
    },
  },
  // "the same key with the same content": a PL/SQL retry built with APEX_JSON, which writes non-ASCII as
  // \u escapes and its own key order: the same content as the first attempt's UTF-8 body.
  {
    does: 'retries a create that failed after commit under its key, the retry written by APEX_JSON with \\u escapes and another key order',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Café Crème Brûlée' };
      const key = 'apex-json-create-0c93d1';
      const first = await createWith(t, a, body, key);
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_100);
      const { scopeLabel, capabilities, environment, connectorId } = body;
      const raw = JSON.stringify({ scopeLabel, capabilities, environment, connectorId }).replace(
        /[\u0080-\uffff]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      );
      replayed('retry', await api(t, a, 'POST', '/connections', { raw, key }));
    },
  },
  // "Tokens are short-lived and are renewed": three pods started 100 s apart, each renewing its 300 s token
  // 60 s before expiry; their renewals interleave with the other pods' calls.
  {
    does: 'runs three pods started 100 s apart, each renewing its 300 s token 60 s before expiry, a read each every 20 s for 20 minutes',
    pass: [],
    async run(t) {
      await staggeredPods(t, (_pod, _call, leftMs) => leftMs <= 60_000);
    },
  },
  // "Clients retry with growing intervals and slight random spread": threads sharing one token, each with
  // its own ThreadLocalRandom, in lockstep through two 500s on four reads.
  {
    does: 'runs four threads on one token, each drawing its lestrrat-go jitter from its own ThreadLocalRandom, four reads in lockstep through two 500s',
    pass: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      for (const route of ['listProviders', 'listConnectors', 'listCapabilities', 'listConnections'])
        fault(t, { kind: 'internal', route, count: 2 });
      await lockstep(
        t,
        PATHS.slice(0, 4).map((path, i) => ({ a, path, wait: lestrratExponential(seeded(2441 + i * 104_729)) })),
      );
    },
  },
];

export const PROBES_MISBEHAVING_24: FaultyClient[] = [
  // "respect the wait time of the response": the job's visibility timeout is a fixed 500 ms, so pod B sends
  // pod A's refused create while pod A's Retry-After (3 s) is still running.
  {
    does: 'has a create refused 429 (Retry-After 3) on pod A redelivered to pod B 500 ms later, under the job’s key',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      await redelivered(t, 500);
    },
  },
  // "slight random spread": four threads on one token, each seeding its generator with the same constant, in
  // lockstep through two 500s on four reads: every thread draws the same waits.
  {
    does: 'runs four threads on one token, each seeding its jitter generator with the same constant, four reads in lockstep through two 500s',
    fails: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      for (const route of ['listProviders', 'listConnectors', 'listCapabilities', 'listConnections'])
        fault(t, { kind: 'internal', route, count: 2 });
      await lockstep(
        t,
        PATHS.slice(0, 4).map((path) => ({ a, path, wait: lestrratExponential(seeded(2442)) })),
      );
    },
  },
  // "renewed, not extended" (not churned): among three pods renewing correctly, pod 1 fetches a new 300 s token
  // every third call (every 60 s, 240 s left).
  {
    does: 'runs three pods started 100 s apart, two renewing 60 s before expiry and one fetching a new 300 s token every 60 s',
    fails: ['auth.token-reused'],
    async run(t) {
      await staggeredPods(t, (pod, call, leftMs) => (pod === 1 ? call > 0 && call % 3 === 0 : leftMs <= 60_000));
    },
  },
  // "Clients retry with growing intervals": a custom Messenger strategy configured with multiplier 0.5 (and
  // jitter 0.1): 2 s, 1 s, 500 ms, each moved by up to ±10 %, five reads through three 500s.
  {
    does: 'is a Messenger worker with a custom strategy of multiplier 0.5 and jitter 0.1 (2 s, 1 s, 500 ms), five reads each through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const random = seeded(2444);
      const wait = (n: number) => Math.round(2_000 * 0.5 ** n * (1 + (random() * 2 - 1) * 0.1));
      const routes = ['listProviders', 'listConnectors', 'listCapabilities', 'listConnections', 'listProviders'];
      for (const [i, path] of PATHS.entries()) {
        fault(t, { kind: 'internal', route: routes[i] ?? 'listProviders', count: 3 });
        ok(path, await loop(sleeper(t), () => get(t, a, path), wait, 3));
        await sleeper(t)(5_000);
      }
    },
  },
];
