// An independent deployment ("ginkgo", written from interface.md alone, in the style of a Python FastAPI
// team on node:http) judged by the kit in process: without a deployment profile and with the profile
// declaring ginkgo's own choices, then with Service-Version mandatory and with paused connections.
import { fileURLToPath } from 'node:url';
import { startGinkgo } from './independent/ginkgo/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/ginkgo/ginkgo-profile.json', import.meta.url));

/** A 5 s window instead of 15 s, so the profile's bounded burst meets a 429 within a second or two. */
const FAST = { rateLimit: 200, windowMs: 5000 };

independentSuite({
  deployment: 'ginkgo',
  start: startGinkgo,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Legal: whether Service-Version is mandatory is "not shown"; the kit sends it on every call.
    { name: 'with Service-Version mandatory', options: { ...FAST, versionRequired: true }, profile: PROFILE },
    // Legal: states and transitions are "not shown"; here a ready connection pauses after 500 ms.
    { name: 'with connections pausing after 500 ms', options: { ...FAST, pauseAfterMs: 500 }, profile: PROFILE },
  ],
});
