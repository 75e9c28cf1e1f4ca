// An independent deployment ("kapok", written from interface.md alone, minimalist edge/serverless style)
// judged by the kit in process: without a deployment profile and with the profile declaring kapok's own
// choices, then with a tight fixed window and with other legal choices together.
import { fileURLToPath } from 'node:url';
import { startKapok } from './independent/kapok/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/kapok/kapok-profile.json', import.meta.url));

/**
 * A short fixed window, so the profile's bounded burst meets a 429 within seconds: 250 calls in 5 s (a burst made 10
 * at a time on a loaded CI worker did not reach 400 within a 2 s window, session 24).
 */
const FAST = { rateLimit: 250, windowMs: 5000 };

independentSuite({
  deployment: 'kapok',
  start: startKapok,
  timeout: 120_000,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // A tight window (its values are not shown) that answers some of the kit's calls 429 while it paces.
    { name: 'with 80 calls per 2 s', options: { rateLimit: 80, windowMs: 2000 }, allow: 'should' },
    // Other legal choices together: the audit log oldest first in pages of 3, a replayed registration without the
    // signing key ("issued exactly once in the response"), and a delivery log paged one entry at a time by default
    // (its paths and payloads are not shown; `limit` up to 100 is documented). Fails today: the kit reads at most
    // 10 default-sized pages of the delivery log and never asks the documented `limit`, so webhooks.delivery-log and
    // webhooks.redelivery skip ("out of the kit's reach") although one call with limit=100 reaches the delivery.
    {
      name: 'with an oldest-first audit log, a key-less replay and a finely paged delivery log',
      options: { ...FAST, auditOldestFirst: true, auditPageSize: 3, redactKeyOnReplay: true, deliveryPageSize: 1 },
      profile: PROFILE,
      judged: PROFILE_JUDGED,
    },
  ],
});
