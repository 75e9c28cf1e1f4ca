// An independent deployment ("mulberry", written from interface.md alone, a Go team's chi/sqlc style
// on node:http) judged by the kit in process: without a deployment profile and with the profile
// declaring mulberry's own choices, then with Service-Version mandatory and with its other legal choices.
import { fileURLToPath } from 'node:url';
import { startMulberry } from './independent/mulberry/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/mulberry/mulberry-profile.json', import.meta.url));

/** A short GCRA window, so the profile's bounded burst meets a 429 within a second or two. */
const FAST = { rateLimit: 300, windowMs: 5000 };

const OTHER_CHOICES = {
  timeOffsetMinutes: -300,
  storeRefusals: true,
  connectionsNewestFirst: true,
  auditOldestFirst: true,
  streamReplayAll: true,
  streamMultiline: true,
  redeliverSameId: true,
  missingTenantStatus: 401,
  unknownVersionAsCurrent: true,
  auditMaxLimit: 20,
  streamMaxMs: 700,
} as const;

independentSuite({
  deployment: 'mulberry',
  start: startMulberry,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Another legal choice: "Whether the header is mandatory and what happens with an unknown value: not shown."
    { name: 'with Service-Version mandatory', options: { ...FAST, versionRequired: true }, profile: PROFILE },
    // Its other legal choices at once (README, "Other legal choices"): local times with an offset, refusals
    // stored under their key, newest-first connections, an oldest-first audit log, streams that start at
    // message 1 with multi-line data, redelivery under the same delivery id, 401 for a missing tenant header,
    // an unknown Service-Version answered as the current one, audit pages of at most 20 (more: 400) and streams
    // the server ends after 0.7 s.
    {
      name: 'with its other legal choices together',
      options: { ...FAST, ...OTHER_CHOICES },
      profile: PROFILE,
    },
  ],
});
