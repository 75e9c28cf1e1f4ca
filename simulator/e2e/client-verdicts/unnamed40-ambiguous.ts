import { auth, CONNECTION, fault } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { ALL_TENANTS } from './unnamed30-kit.ts';
import { hareClamped, regionalFailover, tclAfter, tenantBatches } from './unnamed40-kit.ts';

/**
 * Round 40, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_40: AmbiguousClient8[] = [
  {
    does: 'is a Tcl loop retrying a gateway 503 (Retry-After 5) with its own guidance schedule, 0.5 s and 1 s plus a draw, before the Retry-After',
    why: '"respect the wait time of the response" is written for rate_limited, and the guidance treats a 503 as a transport failure; the rules judge a 503’s Retry-After only as a wait that must grow, so growing own waits under it pass',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'listConnectors', retryAfterSeconds: 5, count: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), tclAfter(seeded(4041)), 3));
    },
  },
  {
    does: 'is a Kitura form handler double-submitted: the create succeeds, and the user’s second click 800 ms later sends the same body under a new key',
    why: '"use a new key for each new operation": whether a second click is a new operation (it makes a second connection) or a repeat of one that succeeded the interface does not say; the rules see a create after a success with no failure to repeat and, with one earlier success, no series: no retry',
    judged: [],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Kitura Double Click' };
      ok('first', await createWith(t, a, body, 'form-4042-a'));
      await sleeper(t)(800);
      ok('second', await createWith(t, a, body, 'form-4042-b'));
    },
  },
  {
    does: 'is an Io script that, after a 429 on /providers (Retry-After 3), reads /providers?category=pos 1 s later and /providers again after the 3 s',
    why: '"respect the wait time of the response": the filtered read asks for other content of the same route; whether the Retry-After binds the route or the exact request the interface does not say; the rules take other content as no retry',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 3, count: 1 });
      const refused = await get(t, a, '/providers');
      if (refused.status !== 429) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(1_000);
      ok('filtered', await get(t, a, '/providers?category=pos'));
      await sleeper(t)(2_100);
      ok('retry', await get(t, a, '/providers'));
    },
  },
  {
    does: 'is an Ada nightly batch serving its three tenants one after another, each with a fresh 15-minute token of the integrator taken at the tenant’s start: ten reads 3 s apart, the next tenant 2 s later',
    why: '"Tokens are short-lived and are renewed, not extended": a token per tenant of work is neither renewed nor extended, yet the integrator’s token would have served all three; the rules follow a token across its client’s tenants, so each hand-over looks like a replacement',
    judged: [],
    options: ALL_TENANTS,
    run: (t) => tenantBatches(t, 'fresh'),
  },
  {
    does: 'is an integrator with one token per region whose us token also reads tenant A; A’s read fails twice through the eu region and the process fails over to the us token for three more attempts',
    why: '"A sample client makes up to 4 attempts": one process made five attempts of one read, but on the wire two tokens in use for the tenant at the same time are two processes (pods), and the rules count reads per process; the same failover without the earlier us read of A fails retry.attempt-limit (misbehaving, round 40)',
    judged: [],
    options: ALL_TENANTS,
    run: (t) => regionalFailover(t, { usReadsA: true }),
  },
  {
    does: 'is a Hare tool making one read through three 500s with time::sleep((500 << max(n - 1, 0)) ms), no draw: 500, 500, 1000 ms, its only retry sequence',
    why: '"retry with growing intervals": the first step does not grow, but with a single sequence the rules cannot tell a schedule without spread from a jittered one that drew close, and judge it only when more than half its pairs are equal (one of two here); the same schedule over three reads fails retry.growing-waits and retry.spread (misbehaving, round 40)',
    judged: [],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: hareClamped, failures: 3, max: 3, ops: 1 }),
  },
];
