// An independent deployment ("cedar", written from interface.md alone, Go-gateway style) judged by the
// kit in process: without a deployment profile and with the profile declaring cedar's own choices.
// Expected: no failed MUST, no failed SHOULD, exit code 0 (cedar earns every SHOULD it is judged on).
import { fileURLToPath } from 'node:url';
import { startCedar } from './independent/cedar/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/cedar/cedar-profile.json', import.meta.url));

independentSuite({
  deployment: 'cedar',
  start: startCedar,
  concurrent: false,
  runs: [
    { name: 'without a deployment profile' },
    // With the profile the kit judges the delivery log, redelivery, capability_denied and the 429 burst too.
    { name: 'with its deployment profile', profile: PROFILE, judged: PROFILE_JUDGED },
    // Other legal choices of cedar's: a replay leaves the signing key out ("issued exactly once"), and a tight
    // rate limit (its values are not shown) answers some of the kit's concurrent copies 429.
    {
      name: 'with the signing key left out of a replayed registration',
      options: { redactKeyOnReplay: true },
      allow: 'should',
    },
    { name: 'with 100 calls per 2 s', options: { rateLimit: 100, windowMs: 2000 }, allow: 'should' },
  ],
});
