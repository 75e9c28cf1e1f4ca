import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { fixturesWithClientForAllTenants } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { ownToken } from './unnamed33-kit.ts';
import { mutinyBackoff, pocoEvery, rtkBackoff, rxTimer } from './unnamed35-kit.ts';
import { WELL_BEHAVED_35_MORE } from './unnamed35-well-behaved-more.ts';

/**
 * Round 35, well-behaved clients of stacks no earlier round used (RTK Query, Mutiny, RxJava, Boost.Beast,
 * Poco), one integrator token across three tenants, and a blue-green switch of a stream consumer. Each
 * must get no `fail`; the interface sentence that makes it legal is quoted above it.
 */
const INTEGRATOR = 'network-integrator';
const TENANTS = ['harbour-kitchens', 'alpine-bistro', 'lakeside-cafes'];
const ALL: SandboxOptions = { fixtures: fixturesWithClientForAllTenants(INTEGRATOR) };

export const WELL_BEHAVED_35: UnnamedClient2[] = [
  // "up to 4 attempts ... growing intervals and slight random spread": RTK Query told maxRetries: 3.
  {
    does: 'is an RTK Query retry(fetchBaseQuery, { maxRetries: 3 }) in a Node worker on its defaultBackoff ((random + 0.4) * (300 << attempt)), three reads through three 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: rtkBackoff(seeded(3501), 3), failures: 3, max: 3 }),
  },
  // "growing intervals and slight random spread": Mutiny's default jitter 0.5 on 500 ms doubling to 10 s.
  {
    does: 'is a SmallRye Mutiny uni.onFailure().retry().withBackOff(500 ms, 10 s).atMost(3) on its default jitter (0.5), three reads through three 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    run: (t) =>
      readsOn(t, auth(t), sleeper(t), {
        schedule: mutinyBackoff({ initialMs: 500, maxMs: 10_000, random: seeded(3502) }),
        failures: 3,
        max: 3,
      }),
  },
  // "the same key with the same content": the key is made before Single.defer, so every resubscription
  // of retryWhen rebuilds the request around the same key and the same body.
  {
    does: 'is an RxJava Single.defer(() -> post(body, key)).retryWhen(timer) whose key is made outside defer, once per operation, retrying a create through two 500s',
    pass: ['retry.same-key-and-content', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Deferred Dumplings' };
      const key = 'rx-op-5f2a';
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, key), rxTimer(seeded(3503)), 3));
    },
  },
  // "Retry guidance: retry only after rate_limited and internal": a 503 is the gateway's internal; the
  // Boost.Beast loop keeps the request object (key and body) and sleeps the guidance between writes.
  {
    does: 'is a C++ Boost.Beast loop re-writing one http::request (Idempotency-Key and body set once) through two 503s, sleeping 500 << n ms plus uniform_int_distribution(0, 250)',
    pass: ['retry.same-key-and-content', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 0, count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Beast Bulgogi' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'beast-op-1'), rxTimer(seeded(3504)), 3));
    },
  },
  // "respect the wait time of the response": the Poco loop sleeps each 429's Retry-After, two in a row.
  {
    does: 'is a C++ Poco HTTPClientSession loop that sleeps the Retry-After of every 429 (2 s, then 2 s) and its own 250 << n ms otherwise',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), pocoEvery(seeded(3505)), 3));
    },
  },
  // "renewed, not extended": one integrator token serves all three tenants, renewed once under 60 s are
  // left of its 10 minutes; the tenants are read in turn every 20 s for 30 minutes.
  {
    does: 'is an integrator holding one 10-minute token for all three tenants, reading each in turn every 20 s for 30 minutes and renewing it once fewer than 60 s are left',
    pass: ['auth.token-reused'],
    options: ALL,
    async run(t) {
      const token = ownToken(t, 600, 60, () => t.sandbox.issueToken(INTEGRATOR, 600));
      for (let i = 0; i < 90; i++) {
        const tenant = TENANTS[i % 3] ?? 'harbour-kitchens';
        ok('read', await get(t, { ...token(), tenant }, '/connectors'));
        await sleeper(t)(20_000);
      }
    },
  },
  // "resumes without gaps ... (last number read)": blue drains, handling six of the eight sent (the rest
  // of the burst arrives as it closes), writes 6 and exits; green, with a token of its own, resumes at 6.
  {
    does: 'is a blue-green switch: blue closes its stream after handling six of a burst of eight, writes 6 to the shared store and exits; green (its own token, no stream before) opens with Last-Event-ID: 6',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const blue = auth(t);
      const green = auth(t);
      // The eight arrive together; blue handles six, then closes (the rest is the burst it left).
      const ids = await readStream(t, blue, { count: 6, onOpen: () => publish(t, blue.tenant, 8) });
      const handled = ids.slice(0, 6);
      if (handled.length !== 6) throw new Error(`read ${ids.join(',')}`);
      await sleeper(t)(1_500);
      await readStream(t, green, { cursor: handled.at(-1) ?? 0, idleMs: 400 });
    },
  },
  // "Doing what the remedy says is a new call": a 400 for a one-character scopeLabel; the form is fixed
  // and sent as a new operation under a new key.
  {
    does: 'gets a 400 for a one-character scopeLabel, lets the operator fix it, and sends the corrected body under a new key 30 s later',
    pass: [],
    async run(t) {
      const a = auth(t);
      const refused = await api(t, a, 'POST', '/connections', {
        body: { ...CONNECTION, scopeLabel: 'Q' },
        key: 'form-0001',
      });
      if (refused.status !== 400) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(30_000);
      ok('fixed', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Quayside Quiche' }, 'form-0002'));
    },
  },
  ...WELL_BEHAVED_35_MORE,
];
