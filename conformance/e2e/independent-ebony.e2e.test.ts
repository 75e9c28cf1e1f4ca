// An independent deployment ("ebony", written from interface.md alone, mainframe z/OS Connect style) judged by the
// kit in process: IBM z/OS Connect in front of CICS programs behind an API Connect gateway, with fixed-width upper-case
// identifiers (CN00000042), times without fractional seconds, PEND/ACTV states, a 300 s token from an API Connect
// style token URL (/mfzc/sandbox/oauth2/token), plan rate limits in a fixed window, a batch webhook dispatcher, a
// hash-chained audit journal and an X-Global-Transaction-ID on every answer. Three runs: without a deployment
// profile (a short window of 200 calls per 5 s), with its profile (the checks a profile turns on must be judged),
// and with its other legal choices switched on (strict Service-Version, a slower dispatcher, a slower activation).
import { fileURLToPath } from 'node:url';
import { type EbonyOptions, startEbony } from './independent/ebony/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const EBONY_PROFILE = fileURLToPath(new URL('./independent/ebony/ebony-profile.json', import.meta.url));

independentSuite<EbonyOptions>({
  deployment: 'ebony',
  start: startEbony,
  runs: [
    { name: 'without a deployment profile', options: { rateLimit: 200, windowMs: 5000 } },
    {
      name: 'with its deployment profile',
      options: { rateLimit: 400, windowMs: 10_000 },
      profile: EBONY_PROFILE,
      judged: PROFILE_JUDGED,
    },
    {
      name: 'with strict Service-Version, a 600 ms dispatcher and a 1.5 s activation batch',
      options: {
        rateLimit: 300,
        windowMs: 10_000,
        strictServiceVersion: true,
        dispatchIntervalMs: 600,
        activationDelayMs: 1500,
      },
      profile: EBONY_PROFILE,
      judged: PROFILE_JUDGED,
    },
  ],
});
