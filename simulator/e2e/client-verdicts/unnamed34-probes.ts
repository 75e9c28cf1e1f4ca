import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { fixturesWithClientForAllTenants } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { ownToken } from './unnamed33-kit.ts';
import { httpRbDelay } from './unnamed34-kit.ts';

/**
 * Round 34, edges of keys and tokens across time and processes: a key from a per-day counter used again
 * the next day, the same counter reset by a deploy, a request built with the old token sent from a queue
 * after the renewal, pods of a fleet (one per tenant) renewing their tokens at the same moment.
 */
const INTEGRATOR = 'network-integrator';
const TENANTS = ['harbour-kitchens', 'alpine-bistro', 'lakeside-cafes'];
const ALL: SandboxOptions = { fixtures: fixturesWithClientForAllTenants(INTEGRATOR) };

export const PROBES_WELL_34: UnnamedClient2[] = [
  // "a key used again once the service has let it expire ... is a new key": the counter's key text comes
  // back the next day (25 h later), for another connection, on a token taken that day.
  {
    does: 'makes its keys from a per-day counter (day-0001): the same key text comes back 25 h later, for another connection, on that day’s token',
    pass: ['idempotency.one-key-one-content'],
    async run(t) {
      ok('day 1', await createWith(t, auth(t), { ...CONNECTION, scopeLabel: 'Monday Moussaka' }, 'day-0001'));
      await sleeper(t)(25 * 3_600_000);
      ok('day 2', await createWith(t, auth(t), { ...CONNECTION, scopeLabel: 'Tuesday Tagine' }, 'day-0001'));
    },
  },
  // "renewed, not extended": three pods, one per tenant, each with its own token renewed once fewer than
  // 300 s are left; started together, so all three renew within a few seconds of each other.
  {
    does: 'is a fleet of three pods of one integrator, one per tenant, each reading every 15 s (5 s apart) on its own 15-minute token renewed under 300 s left: all three renew at about the same moment',
    pass: ['auth.token-reused'],
    options: ALL,
    async run(t) {
      const pods = TENANTS.map((tenant) =>
        ownToken(t, 900, 300, () => ({ ...t.sandbox.issueToken(INTEGRATOR, 900), tenant })),
      );
      for (let i = 0; i < 64; i++) {
        for (const token of pods) {
          ok('read', await get(t, token(), '/connectors'));
          await sleeper(t)(5_000);
        }
      }
    },
  },
];

PROBES_WELL_34.push({
  // "respect the wait time of the response": http.rb's delay calculator takes a Retry-After when there is
  // one, so three 429s (1 s each) are waited out 1 s apart: the server's waits, not the client's.
  does: 'is a Ruby http.rb client with .retriable(tries: 4, retry_statuses: [429]) whose delay calculator takes the Retry-After (1 s) of each of three 429s',
  pass: ['retry.respects-retry-after', 'retry.attempt-limit'],
  async run(t) {
    const a = auth(t);
    fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 1, count: 3 });
    const own = httpRbDelay(seeded(3471));
    const wait = (n: number, r: { retryAfterMs: number }) => (r.retryAfterMs > 0 ? r.retryAfterMs : own(n));
    ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), wait, 3));
  },
});

export const PROBES_MISBEHAVING_34: FaultyClient[] = [
  // "use a new key for each new operation": the counter lives in memory, so a deploy 10 minutes later
  // starts again at job-0001, for another connection.
  {
    does: 'makes its keys from an in-memory counter (job-0001) that a deploy 10 minutes later resets: the next process sends job-0001 for another connection',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      ok('first', await createWith(t, auth(t), { ...CONNECTION, scopeLabel: 'Before Deploy Bao' }, 'job-0001'));
      await sleeper(t)(600_000);
      await createWith(t, auth(t), { ...CONNECTION, scopeLabel: 'After Deploy Bibimbap' }, 'job-0001');
    },
  },
  // "remedy: request a new access token": the renewal came after the 401, but a request built earlier
  // (Authorization set when it was queued) goes out of the queue 6 s later with the expired token.
  {
    does: 'renews its token after a 401 (expired) but sends a request queued earlier, its Authorization header fixed when queued, 6 s later with the expired token',
    fails: ['auth.renewed-after-expiry'],
    async run(t) {
      const old = auth(t, undefined, 60);
      ok('read', await get(t, old, '/connectors'));
      await sleeper(t)(61_000);
      const refused = await get(t, old, '/connectors');
      if (refused.status !== 401) throw new Error(`answered ${refused.status}`);
      ok('renewed', await get(t, auth(t, undefined, 900), '/connectors'));
      await sleeper(t)(6_000);
      await api(t, old, 'GET', '/providers');
    },
  },
];
