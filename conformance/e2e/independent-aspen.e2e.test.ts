// An independent deployment ("aspen", written from interface.md alone, bank-grade strict style: mandatory
// Service-Version, ULIDs, a Merkle-tree audit log) judged by the kit in process: without a deployment
// profile and with the profile declaring aspen's own choices.
import { fileURLToPath } from 'node:url';
import { startAspen } from './independent/aspen/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/aspen/aspen-profile.json', import.meta.url));

/** A short sliding window, so the profile's bounded burst meets a 429 within a second or two. */
const FAST = { rateLimit: 200, windowMs: 5000 };

independentSuite({
  deployment: 'aspen',
  start: startAspen,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Other legal choices at once: Service-Version mandatory on the public endpoints too, Last-Event-ID winning
    // over ?cursor, critical capabilities not released for production, an unknown connector decided "not
    // allowed" instead of 404, a keyed creation's 409/404 refusal stored and replayed ("the same response
    // again"), an Idempotency-Key refused on calls that take none (the interface leaves each open), and 3 s
    // tokens the kit must renew mid-run.
    {
      name: 'with its stricter variants and 3 s tokens',
      options: {
        ...FAST,
        versionEverywhere: true,
        lastEventIdWins: true,
        productionCriticalDenied: true,
        unknownConnectorDecided: true,
        storeRefusals: true,
        refuseKeyOnReads: true,
        tokenTtlSeconds: 3,
      },
      profile: PROFILE,
      judged: PROFILE_JUDGED,
    },
  ],
});
