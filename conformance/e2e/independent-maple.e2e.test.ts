// An independent deployment ("maple", written from interface.md alone, Go/grpc-gateway behind Envoy)
// judged by the kit in process: without a deployment profile, with the profile declaring maple's own
// choices, and with its other legal choices (MAPLE_CURSOR_WINS, MAPLE_STRICT_FIELDS) switched on.
// maple's default bucket (50, refilled 25/s) made a run about 16 s (41 waits of 1 s): the runs here refill
// 200 tokens/s (the profile's run 50/s, so that its burst provokes a 429 on a loaded machine too), so the
// kit still meets 429s in a few seconds.
import { fileURLToPath } from 'node:url';
import type { StartOptions } from './independent/maple/server.ts';
import { startMaple } from './independent/maple/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const FAST: StartOptions = { capacity: 50, refillPerSecond: 200 };
/** For the profile's burst: one that a loaded machine sends slower than 200 calls a second still finds the 429. */
const BURSTABLE: StartOptions = { capacity: 50, refillPerSecond: 50 };
const PROFILE = fileURLToPath(new URL('./independent/maple/maple-profile.json', import.meta.url));

independentSuite({
  deployment: 'maple',
  start: startMaple,
  concurrent: false,
  // The scheme read as "Bearer" only: RFC 9110 §11.1 reads it in any case, so the kit warns (a SHOULD: the
  // interface writes "Bearer" and says nothing of the case).
  warns: ['auth.scheme-case-insensitive'],
  runs: [
    // Without a profile the delivery log and the :redeliver route are read from its OpenAPI document.
    { name: 'without a deployment profile', options: FAST, judged: ['webhooks.delivery-log', 'webhooks.redelivery'] },
    { name: 'with its deployment profile', options: BURSTABLE, profile: PROFILE, judged: PROFILE_JUDGED },
    {
      name: 'with ?cursor winning and unknown body fields refused',
      options: { ...FAST, cursorWins: true, strictFields: true },
      profile: PROFILE,
    },
  ],
});
