import { api, auth, CONNECTION, fault, READS, type UnnamedClient2 } from './unnamed-kit.ts';
import { resilience4j, seeded } from './unnamed4-kit.ts';
import { fixturesWithClientForAllTenants, guidanceWait } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';

/**
 * Round 10, more well-behaved clients: a slow-growing jittered schedule, an operation key shared by a
 * capability check and its create, one token for two tenants. Each must get no `fail` (the first gets
 * one today: a wrong verdict, reported, the test kept as it should be).
 */
export const WELL_BEHAVED_MORE_10: UnnamedClient2[] = [
  // "Clients retry with growing intervals and slight random spread": resilience4j's
  // IntervalFunction.ofExponentialRandomBackoff(500 ms, 1.2, 0.1): each wait 20 % longer than the last,
  // drawn within ±10 %. Slower growth than the sample's doubling, but growing; six reads through three
  // 500s each (four attempts, the sample's bound).
  {
    does: 'is a Java service on resilience4j with IntervalFunction.ofExponentialRandomBackoff(500 ms, multiplier 1.2, randomization 0.1), six reads each through three 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = resilience4j({ initialMs: 500, multiplier: 1.2, factor: 0.1, random: seeded(1009) });
      const paths = [...READS.map(([route, path]) => [route, path] as const), ['listConnections', '/connections']];
      for (const [route, path] of paths) {
        fault(t, { kind: 'internal', route, count: 3 });
        ok(
          path,
          await retrying(
            sleep,
            () => get(t, a, path),
            (n) => wait(n + 1),
          ),
        );
        await sleep(4_000);
      }
    },
  },
  // "a key sent along with ... a capability check means nothing to the service": the client asks the
  // capability check under the key it then creates the connection with (its operation's key).
  {
    does: 'sends its operation’s Idempotency-Key first with the capability check (other content) and then with the create it decides, retried after a 500 with that key',
    pass: ['idempotency.one-key-one-content', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const key = 'op-check-then-create-01';
      const check = { connectorId: CONNECTION.connectorId, capability: 'orders.read' };
      ok('check', await api(t, a, 'POST', '/capabilities', { body: check, key }));
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Checked First Fondue' };
      ok(
        'create',
        await retrying(sleep, () => api(t, a, 'POST', '/connections', { body, key }), guidanceWait(seeded(1010))),
      );
    },
  },
  // "respect the wait time of the response": a wait is owed per tenant (rate limits are "configured per
  // access, per tenant"). One token serves two tenants; tenant A's read is refused 429 (Retry-After: 2)
  // and tenant B's same read goes 100 ms later, then A's retry after its Retry-After.
  {
    does: 'serves two tenants with one token: tenant A’s read is refused 429 (Retry-After: 2), tenant B’s identical read goes 100 ms later, A retries after 2.1 s',
    pass: ['retry.respects-retry-after'],
    options: { fixtures: fixturesWithClientForAllTenants('network-integrator') },
    async run(t) {
      const one = auth(t, 'network-integrator', 3_600);
      const sleep = sleeper(t);
      const tenantA = { ...one, tenant: 'harbour-kitchens' };
      const tenantB = { ...one, tenant: 'alpine-bistro' };
      fault(t, {
        kind: 'rate_limited',
        route: 'listConnectors',
        retryAfterSeconds: 2,
        count: 1,
        tenant: tenantA.tenant,
      });
      const first = await get(t, tenantA, '/connectors');
      if (first.status !== 429) throw new Error(`answered ${first.status}`);
      await sleep(100);
      ok('tenant B', await get(t, tenantB, '/connectors'));
      await sleep(2_000);
      ok('tenant A', await get(t, tenantA, '/connectors'));
    },
  },
];
