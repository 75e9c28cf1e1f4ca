import type { SandboxOptions } from '../../app/sandbox-options.ts';
import type { Target } from '../harness.ts';
import { type Auth, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { fixturesWithClientForAllTenants } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';

/**
 * Round 29, clients of several processes or tenants (round 28 found the token rules judged each tenant
 * alone; a token is now followed across its client's tenants): a sibling taking over a dead pod's create,
 * integrators holding one token or one per tenant for three tenants, a web process beside a cron job
 * taking a token per run, two tenants' streams. Well-behaved ones must get no `fail`, misbehaving ones
 * exactly their rule(s).
 */
const INTEGRATOR = 'network-integrator';
const ALL = { fixtures: fixturesWithClientForAllTenants(INTEGRATOR) };
const TENANTS = ['harbour-kitchens', 'alpine-bistro', 'lakeside-cafes'];
const as = (t: Target, tenant: string, ttl: number): Auth => ({ ...t.sandbox.issueToken(INTEGRATOR, ttl), tenant });

/** A web process (its own token, in use) takes over the create a worker sent before it died (500). */
async function takeOver(t: Target, keyOfRetry: (workerKey: string) => string) {
  const web = auth(t);
  const worker = auth(t);
  ok('web', await get(t, web, '/connectors'));
  fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
  const body = { ...CONNECTION, scopeLabel: 'Orphaned Okonomiyaki' };
  const workerKey = 'job-5521-create';
  const first = await createWith(t, worker, body, workerKey);
  if (first.status !== 500) throw new Error(`answered ${first.status}`);
  await sleeper(t)(2_000);
  ok('take-over', await createWith(t, web, body, keyOfRetry(workerKey)));
}

/** Two tenants' streams of one integrator token, each cut (after 2 and 3), then resumed from `cursorFor`. */
async function twoTenantStreams(t: Target, cursorFor: (own: number, shared: number) => number) {
  const a = as(t, TENANTS[0] ?? '', 3_600);
  const tenants = TENANTS.slice(0, 2);
  const own = new Map<string, number>();
  let shared = 0;
  for (const [i, tenant] of tenants.entries()) {
    fault(t, { kind: 'stream_cut', afterMessages: 2 + i, tenant, count: 1 });
    const ids = await readStream(t, { ...a, tenant }, { onOpen: () => publish(t, tenant, 2 + i) });
    const last = ids.at(-1);
    if (last === undefined) throw new Error(`${tenant}: read nothing`);
    own.set(tenant, last);
    shared = last;
  }
  await sleeper(t)(1_000);
  for (const tenant of tenants)
    await readStream(t, { ...a, tenant }, { cursor: cursorFor(own.get(tenant) ?? 0, shared), idleMs: 500 });
}

export const FLEETS_WELL_BEHAVED_29: UnnamedClient2[] = [
  // "A sibling process sending a dead pod's failed create again ... must carry its key": it does.
  {
    does: 'is a web process (its own token, in use) taking over the create a dead worker sent (refused 500), under the worker’s key from the job record',
    pass: ['retry.same-key-and-content'],
    run: (t) => takeOver(t, (k) => k),
  },
  // "renewed, not extended": one integrator token for three tenants, renewed 5 minutes before its
  // 15-minute expiry; each tenant read every 30 s for 25 minutes.
  {
    does: 'is an integrator holding one token for three tenants, renewed 5 minutes before its 15-minute expiry, reading each tenant every 30 s for 25 minutes',
    pass: [],
    options: ALL,
    async run(t) {
      let held = { a: as(t, '', 900), at: 0 };
      for (let s = 0; s <= 1_500; s += 30) {
        if (s - held.at >= 600) held = { a: as(t, '', 900), at: s };
        for (const tenant of TENANTS) ok(tenant, await get(t, { ...held.a, tenant }, '/connections'));
        await sleeper(t)(30_000);
      }
    },
  },
  // "renewed, not extended": a token per tenant (10 minutes), each renewed at 80 % of its lifetime; the
  // tenants' turns are staggered 10 s apart, so some tenant's token is renewed every few minutes.
  {
    does: 'is an integrator holding a token per tenant for three tenants (10 minutes, renewed at 80 %), turns staggered 10 s, each tenant read every 30 s for 20 minutes',
    pass: [],
    options: ALL,
    async run(t) {
      const cache = new Map<string, { a: Auth; at: number }>();
      for (let s = 0; s <= 1_200; s += 10) {
        const tenant = TENANTS[(s / 10) % 3] ?? '';
        const held = cache.get(tenant);
        const a = held && s - held.at < 480 ? held.a : as(t, tenant, 600);
        if (a !== held?.a) cache.set(tenant, { a, at: s });
        ok(tenant, await get(t, a, '/connections'));
        await sleeper(t)(10_000);
      }
    },
  },
  // "renewed ... in a later run (a job started again) is no churn": a cron job started every minute
  // takes a token per run, beside a web process polling every 15 s on one token.
  {
    does: 'is a web process polling every 15 s on one token beside a cron job started every minute that takes a token of its own per run (two reads 1 s apart)',
    pass: [],
    async run(t) {
      const web = auth(t, undefined, 3_600);
      for (let s = 0; s < 420; s += 15) {
        ok('web', await get(t, web, '/connections'));
        await sleeper(t)(1_000);
        if (s % 60 === 0) {
          const cron = auth(t, undefined, 3_600);
          ok('cron', await get(t, cron, '/connectors'));
          await sleeper(t)(1_000);
          ok('cron', await get(t, cron, '/capabilities'));
          await sleeper(t)(13_000);
        } else await sleeper(t)(14_000);
      }
    },
  },
  // "(last number read)": two tenants' streams of one token, each resumed from its own last number.
  {
    does: 'reads two tenants’ streams on one integrator token, cut at different points, and resumes each from its own last number',
    pass: ['stream.resume-from-last-read'],
    run: (t) => twoTenantStreams(t, (own) => own),
  },
];

export const FLEETS_MISBEHAVING_29: (FaultyClient & { options?: SandboxOptions })[] = [
  // "A sibling process sending a dead pod's failed create again is a retry of it, and must carry its key".
  {
    does: 'is a web process taking over the create a dead worker sent (refused 500), under a key from its own generator',
    fails: ['retry.same-key-and-content'],
    run: (t) => takeOver(t, () => 'web-0001-create'),
  },
  // "renewed, not extended": a single-slot token cache that holds the last tenant's token, round robin over
  // three tenants every 5 s: a new one-hour token on every call.
  {
    does: 'keeps a single-slot token cache keyed by tenant and serves three tenants round robin every 5 s: a new one-hour token per call',
    fails: ['auth.token-reused'],
    async run(t) {
      for (let i = 0; i < 24; i++) {
        const tenant = TENANTS[i % 3] ?? '';
        ok(tenant, await get(t, as(t, tenant, 3_600), '/connections'));
        await sleeper(t)(5_000);
      }
    },
    options: ALL,
  },
  // "remedy: request a new access token": two processes share a token file; the one refused 401 renews
  // and rewrites the file, the other keeps the expired token in memory, its reads refused 401.
  {
    does: 'shares a token file between two processes: one renews after its 401, the other keeps the expired token in memory for three more reads (each another path)',
    fails: ['auth.renewed-after-expiry'],
    async run(t) {
      const shared = auth(t, undefined, 60);
      for (const s of [0, 20, 40]) {
        ok('a', await get(t, shared, '/connections'));
        await sleeper(t)(10_000);
        ok('b', await get(t, shared, '/providers'));
        await sleeper(t)(s === 40 ? 20_000 : 10_000);
      }
      if ((await get(t, shared, '/connections')).status !== 401) throw new Error('not expired');
      ok('a renewed', await get(t, auth(t, undefined, 60), '/connections'));
      for (const path of ['/connectors', '/capabilities', '/providers?category=pos']) {
        await sleeper(t)(7_000);
        await get(t, shared, path);
      }
    },
  },
  // "(last number read)": one cursor variable for both tenants' streams: the first resumes from the
  // other tenant's last number.
  {
    does: 'reads two tenants’ streams on one integrator token but keeps one cursor variable, so the first tenant resumes from the other’s last number',
    fails: ['stream.resume-from-last-read'],
    run: (t) => twoTenantStreams(t, (_own, shared) => shared),
  },
];
