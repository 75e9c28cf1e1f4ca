// An independent deployment ("sumac", written from interface.md alone, PHP/Laravel style on node:http)
// judged by the kit in process: without a deployment profile, with the profile declaring sumac's own
// choices, and with its other legal choices switched on together.
import { fileURLToPath } from 'node:url';
import { startSumac } from './independent/sumac/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/sumac/sumac-profile.json', import.meta.url));

/** A 5 s window of 300 calls: the profile's burst (1200 calls, four windows) meets a 429 within a second. */
const FAST = { rateLimit: 300, windowMs: 5000 };

independentSuite({
  deployment: 'sumac',
  start: startSumac,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Other legal choices: Service-Version mandatory ("whether the header is mandatory ...: not shown"), the
    // signing key left out of a replayed registration ("issued exactly once"), an RFC 8288 Link header beside
    // the paginator's links.next.
    {
      name: 'with Service-Version required, the key withheld on replay and Link headers',
      options: { ...FAST, serviceVersionRequired: true, redactKeyOnReplay: true, linkHeader: true },
      profile: PROFILE,
    },
    // More of its legal choices: both logs oldest first in pages of at most 10 (the kit must follow the
    // paginator's data.links.next), stream messages named after broadcast classes, the delivery log refused
    // to 2026-06-12, and a queue worker that picks deliveries up a second late.
    {
      name: 'with oldest-first pages of 10, class-named stream messages and a lazy queue worker',
      options: {
        ...FAST,
        oldestFirst: true,
        pageMax: 10,
        classEventNames: true,
        versionedDeliveryLog: true,
        queueDelayMs: 1000,
      },
      profile: PROFILE,
      judged: PROFILE_JUDGED,
    },
  ],
});
