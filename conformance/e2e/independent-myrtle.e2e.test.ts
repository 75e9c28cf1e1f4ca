// An independent deployment ("myrtle", written from interface.md alone, Python aiohttp team style) judged
// by the kit in process: without a profile, with its profile, and with other legal choices of its own.
import { fileURLToPath } from 'node:url';
import { startMyrtle } from './independent/myrtle/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/myrtle/myrtle-profile.json', import.meta.url));

/** A short moving window (250 calls per 5 s), so the profile's burst of 1200 meets a 429 quickly. */
const FAST = { rateLimit: 250, windowMs: 5000 };

independentSuite({
  deployment: 'myrtle',
  start: startMyrtle,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.entry-hash'],
    },
    // Other legal choices: 5-minute tokens and audit pages of at most 10 entries.
    {
      name: 'with short tokens and audit pages of 10',
      options: { ...FAST, tokenTtlSec: 300, auditPageMax: 10 },
      profile: PROFILE,
    },
  ],
});
