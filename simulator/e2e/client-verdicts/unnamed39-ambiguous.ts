import { auth, CONNECTION, fault } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { ALL_TENANTS, as, TENANTS } from './unnamed30-kit.ts';
import { deployment } from './unnamed39-kit.ts';

/**
 * Round 39, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_39: AmbiguousClient8[] = [
  {
    does: 'backs off per route (as an Envoy-style local limiter does): after a 429 on /connectors (Retry-After 5) it reads /providers 1 s later, and /connectors again after 5 s',
    why: '"respect the wait time of the response": the interface does not say whether a Retry-After binds the route that answered it or the whole client; the other read asks for other content, so the rules take it as no retry',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 5, count: 1 });
      const refused = await get(t, a, '/connectors');
      if (refused.status !== 429) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(1_000);
      ok('other route', await get(t, a, '/providers'));
      await sleeper(t)(4_100);
      ok('retry', await get(t, a, '/connectors'));
    },
  },
  {
    does: 'is an integrator with one token for two tenants; after a 429 for tenant A (Retry-After 3) it reads the same path for tenant B 1 s later with the same token',
    why: '"respect the wait time of the response": whether a rate limit belongs to the tenant or to the client’s token the interface does not say; the rules judge retries per client and tenant, so the read for B is no retry of A’s 429',
    judged: [],
    options: ALL_TENANTS,
    async run(t) {
      const token = as(t, TENANTS[0], 900);
      const forB = { ...token, tenant: TENANTS[1] };
      fault(t, { kind: 'rate_limited', route: 'listConnectors', tenant: TENANTS[0], retryAfterSeconds: 3, count: 1 });
      const refused = await get(t, token, '/connectors');
      if (refused.status !== 429) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(1_000);
      ok('tenant b', await get(t, forB, '/connectors'));
      await sleeper(t)(2_100);
      ok('tenant a', await get(t, token, '/connectors'));
    },
  },
  {
    does: 'sends a create whose token had expired (401), then renews and sends it at once under a new key, its request builder run again',
    why: '"remedy: request a new access token" and "use a new key for each new operation": the service stored nothing for the refused call, so whether the resend is the same operation (one key) or a new one the interface does not say; the rules take a first call refused 401 and sent with a new token as a new call',
    judged: [],
    async run(t) {
      const expired = auth(t, undefined, 1);
      await sleeper(t)(2_000);
      const body = { ...CONNECTION, scopeLabel: 'Rebuilt Request Risotto' };
      const refused = await createWith(t, expired, body, 'rebuilt-1');
      if (refused.status !== 401) throw new Error(`answered ${refused.status}`);
      ok('create', await createWith(t, auth(t), body, 'rebuilt-2'));
    },
  },
  {
    does: 'is a Deployment of three pods (own 1-hour tokens, reads every 10 s) rolled to a new version: each old pod stops and its successor starts 5 s later with a new token, 30 s apart',
    why: '"Tokens are short-lived and are renewed, not extended": a new process taking its own token is no renewal, but on the wire a rolling update replaces three tokens of the client within a minute, each with most of its life left; whether a deploy counts as churn the interface does not say; the rules take each pod’s token as a process of its own and see no churn',
    judged: [],
    run: (t) =>
      deployment(
        t,
        [
          { startS: 0, stopS: 120 },
          { startS: 0, stopS: 150 },
          { startS: 0, stopS: 180 },
          { startS: 125, stopS: 300 },
          { startS: 155, stopS: 300 },
          { startS: 185, stopS: 300 },
        ],
        5,
      ),
  },
  {
    does: 'is a Spin (WebAssembly) component on a 5 s cron polling /connectors, keeping that cadence through three gateway 503s that say Retry-After 10',
    why: '"A read polled at its cadence through failures is polling", yet a 503 is a transport failure whose Retry-After (10 s) the poll comes before; the rules judge a 503’s Retry-After only as a wait that must grow, and a cadence is polling, so nothing fails (the 429 case, pinned in round 38, fails respects-retry-after)',
    judged: [],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 10; i++) {
        if (i === 4) fault(t, { kind: 'unavailable', route: 'listConnectors', retryAfterSeconds: 10, count: 3 });
        await get(t, a, '/connectors');
        await sleeper(t)(5_000);
      }
    },
  },
  {
    does: 'is a Fortran libcurl loop sleeping 500 * 2**n ms moved by up to ±1 % (call random_number), three reads through two 500s each',
    why: '"slight random spread" names no size: ±1 % of 500 ms is a real draw of ±5 ms, but the rule asks a median difference above 40 ms to see spread and fails same-position waits half within 20 ms (a busy machine moves waits by tens of ms, so a spread this small cannot be told from none on a real clock; on the sandbox clock it could)',
    judged: ['retry.spread'],
    run: (t) => {
      const random = seeded(3999);
      return readsOn(t, auth(t), sleeper(t), {
        schedule: (n) => Math.round(500 * 2 ** n * (1 + (random() * 2 - 1) * 0.01)),
        failures: 2,
        max: 3,
      });
    },
  },
];
