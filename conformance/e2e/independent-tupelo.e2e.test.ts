// An independent deployment ("tupelo", written from interface.md alone, Deno Deploy + Deno KV style:
// EdDSA JWTs, KV queue deliveries, KV watch feeding the stream, versionstamp ids, a hash-chained audit log
// with a signed head, fixed-window KV counters) judged by the kit in process: without a deployment
// profile and with its profile, then with a tight window and with its other legal choices together.
import { fileURLToPath } from 'node:url';
import { startTupelo } from './independent/tupelo/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/tupelo/tupelo-profile.json', import.meta.url));

/** A short fixed window, so the profile's bounded burst meets a 429 within seconds; short retries. */
const FAST = { rateLimit: 300, windowMs: 5000, backoffMs: [300, 1000] };

independentSuite({
  deployment: 'tupelo',
  start: startTupelo,
  timeout: 120_000,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // A tight fixed window (its values are not shown): some of the kit's calls meet 429.
    { name: 'with 60 calls per 2 s', options: { rateLimit: 60, windowMs: 2000, backoffMs: [300] }, allow: 'should' },
    // Other legal choices together: Service-Version mandatory, oldest-first audit pages, 20 s tokens,
    // refusals replayed under their key, a stream without cursor starting at message 1, every delivery
    // sent twice (at least once), a re-trigger that resends the same delivery id.
    {
      name: 'with its other legal choices together',
      options: {
        ...FAST,
        versionRequired: true,
        auditOldestFirst: true,
        tokenLifetimeS: 20,
        replayRefusals: true,
        streamFromStart: true,
        deliverTwice: true,
        retriggerSameId: true,
      },
      profile: PROFILE,
    },
  ],
});
