import { createHmac, timingSafeEqual } from 'node:crypto';
import { auth, CONNECTION, fault } from './unnamed-kit.ts';
import { checkReceiver } from './unnamed-run.ts';
import { fixturesWithClientForAllTenants } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { replacedFromOldCursor } from './unnamed27-probes.ts';

/**
 * Round 27, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_27: AmbiguousClient8[] = [
  {
    does: 'shows the user a 429 on a create form; the user presses submit again 10 s later and the form sends the same body under a new key',
    why: '"use a new key for each new operation": a second submit is the user’s new intent, but its content equals a create that failed 429 less than 120 s before, which the rules take for a retry under a new key',
    judged: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Resubmitted Rendang' };
      const first = await createWith(t, a, body, 'form-7a0c-submit-1');
      if (first.status !== 429) throw new Error(`answered ${first.status}`);
      await sleeper(t)(10_000);
      ok('resubmit', await createWith(t, a, body, 'form-7a0c-submit-2'));
    },
  },
  {
    does: 'is an integrator whose read for one tenant is refused 429 (Retry-After 5 s) and who reads the same list for another tenant 200 ms later, with the same token',
    why: '"Rate limits are configured per access, per tenant and per environment": the 429 may belong to the tenant (then the other tenant owes nothing) or to the access (then the read ignores the wait); the rules group calls per tenant, so nothing is owed',
    judged: [],
    options: { fixtures: fixturesWithClientForAllTenants('network-integrator') },
    async run(t) {
      const { token } = t.sandbox.issueToken('network-integrator');
      fault(t, {
        kind: 'rate_limited',
        route: 'listConnections',
        tenant: 'harbour-kitchens',
        retryAfterSeconds: 5,
        count: 1,
      });
      const first = await get(t, { token, tenant: 'harbour-kitchens' }, '/connections');
      if (first.status !== 429) throw new Error(`answered ${first.status}`);
      await sleeper(t)(200);
      ok('other tenant', await get(t, { token, tenant: 'alpine-bistro' }, '/connections'));
      await sleeper(t)(5_000);
      ok('retry', await get(t, { token, tenant: 'harbour-kitchens' }, '/connections'));
    },
  },
  {
    does: 'is a receiver that trims the body text (leading and trailing whitespace) before the HMAC, constant time, 300 s window',
    why: '"over ... the unchanged raw request body": trimming changes a body that starts or ends with whitespace, but no delivery the service sends (nor any case of the receiver check, valid-spaced included) has such whitespace, so the receiver verifies every body it can be sent',
    judged: [],
    run: (t) =>
      checkReceiver(t, {
        verify: (raw, h, secret) => {
          const parts = Object.fromEntries((h ?? '').split(',').map((p) => p.trim().split('=') as [string, string]));
          const t0 = parts.t ?? '';
          const v1 = parts.v1 ?? '';
          if (!/^\d+$/.test(t0) || Math.abs(Date.now() / 1000 - Number(t0)) > 300) return false;
          const mine = createHmac('sha256', secret)
            .update(`${t0}.${raw.toString('utf8').trim()}`)
            .digest('hex');
          return mine.length === v1.length && timingSafeEqual(Buffer.from(mine), Buffer.from(v1));
        },
      }),
  },
  {
    does: 'notices its stream stalled after three messages and opens the replacement with Last-Event-ID 1 (an old cursor) before closing the silent one',
    why: '"resumes without gaps by sending Last-Event-ID ... (last number read)": the replacement reads 2 and 3 again, but it opens while the stalled stream is still open, and a stream opened beside another may be a second consumer of its own, so the rules match it to nothing',
    judged: [],
    run: replacedFromOldCursor,
  },
];
