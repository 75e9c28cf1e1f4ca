// An independent deployment ("sandalwood", written from interface.md alone, in the style of Google's API
// Improvement Proposals: resource names beside ids, CREATING then ACTIVE connections, etags, pageToken paging,
// google.rpc.Status-like error details, a custom method `:redeliver`) judged by the kit in process: once
// without a deployment profile under a short quota window (200 calls per 5 s), once with its profile, and once
// with its other legal choices switched on (2 s tokens, a stream that ends after 5 s, a connection list that
// lags its creations by 400 ms, a slow activation).
import { fileURLToPath } from 'node:url';
import { startSandalwood } from './independent/sandalwood/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const SANDALWOOD_PROFILE = fileURLToPath(new URL('./independent/sandalwood/sandalwood-profile.json', import.meta.url));

independentSuite({
  deployment: 'sandalwood',
  // Its document gives every success a generic `data: object`: the kit rightly advises that POST /capabilities'
  // decision has fields the interface requires ("CapabilityDecision (all fields required)").
  warns: ['openapi.required-not-wider'],
  start: startSandalwood,
  runs: [
    {
      // No profile: the kit discovers the signature header, signing key and delivery log on its own, and
      // meets 429 answers (with Retry-After) in its ordinary calls under a window of 200 calls per 5 s.
      name: 'without a deployment profile (200 calls per 5 s)',
      options: { rateLimit: 200, windowMs: 5000 },
    },
    {
      // The profile names the redelivery custom method, the audit hash and a burst that exceeds the default
      // quota (1000 calls per 10 s), so the delivery log, redelivery, capability_denied and 429 are judged.
      name: 'with its deployment profile',
      profile: SANDALWOOD_PROFILE,
      judged: PROFILE_JUDGED,
    },
    {
      name: 'with 2 s tokens, a 5 s stream, a lagging list and slow activation',
      options: { tokenTtlSeconds: 2, streamMaxSeconds: 5, listLagMs: 400, activationDelayMs: 1500 },
      profile: SANDALWOOD_PROFILE,
      judged: PROFILE_JUDGED,
    },
  ],
});
