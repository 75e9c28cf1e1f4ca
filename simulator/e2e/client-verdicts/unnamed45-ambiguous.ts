import { auth } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { checkOn, PRODUCTION_REFUND, refused } from './unnamed45-kit.ts';

/**
 * Round 45, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_45: AmbiguousClient8[] = [
  {
    does: 'is refused 409 capability_denied, files a ticket asking an operator to release payments.refund in production, and sends the same body under a new key 90 s later when the ticket is closed (still 409: the sandbox releases nothing)',
    why: '"capability_denied ... remedy: have the capability released": the release happens outside the interface and the rules cannot see it; the same content within 120 s after a 4xx reads as the 409 repeated',
    judged: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      refused('first', await createWith(t, a, PRODUCTION_REFUND, 'ticket-release-0001'), 409, 'capability_denied');
      await sleeper(t)(90_000);
      refused(
        'after ticket',
        await createWith(t, a, PRODUCTION_REFUND, 'ticket-release-0002'),
        409,
        'capability_denied',
      );
    },
  },
  {
    does: 'is refused 404 for a capability check of an unknown connector and sends it again 1 s later with environment: "sandbox" written out (the default it had left out)',
    why: '"environment ... default sandbox": the second body asks the service exactly what the first did and changes nothing the 404 named, yet as canonical JSON it is other content, so the rules see a new call',
    judged: [],
    async run(t) {
      const a = auth(t);
      refused('first', await checkOn(t, a, 'tillcraft-pos', 'orders.read'), 404);
      await sleeper(t)(1_000);
      refused('explicit default', await checkOn(t, a, 'tillcraft-pos', 'orders.read', 'sandbox'), 404);
    },
  },
  {
    does: 'is configured with the pilot access against the sandbox: its read is refused 401 (a token of the pilot environment), it requests a new pilot token and sends the read again 1 s later (401 again)',
    why: '"unauthorized ... causes: token missing, token expired, wrong environment; remedy: request a new access token, check the environment": a new token of the wrong environment does half the remedy; the rules take any new token after a 401 as the remedy ("a new token after a 401"), so the second call is a new one',
    judged: [],
    async run(t) {
      const read = () => get(t, { ...auth(t, 'pilot-backend'), tenant: 'harbour-kitchens' }, '/connectors');
      refused('pilot token', await read(), 401, 'unauthorized');
      await sleeper(t)(1_000);
      refused('new pilot token', await read(), 401, 'unauthorized');
    },
  },
];
