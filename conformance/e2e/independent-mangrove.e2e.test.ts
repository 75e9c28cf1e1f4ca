// An independent deployment ("mangrove", written from interface.md alone, Ruby on Rails team style) judged
// by the kit in process: without a deployment profile, with the profile declaring mangrove's own choices,
// and with other legal choices of its own (oldest-first audit pages of 10, a zero-digest genesis link).
// Expected: no failed MUST or SHOULD, exit code 0, and the audit chain judged.
import { fileURLToPath } from 'node:url';
import { startMangrove } from './independent/mangrove/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/mangrove/mangrove-profile.json', import.meta.url));

/** A short Rack::Attack window, so the profile's bounded burst meets a 429 within a second or two. */
const FAST = { rateLimit: 300, windowMs: 5000, retrySecondMs: 20 };

independentSuite({
  deployment: 'mangrove',
  start: startMangrove,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    // The chain's first entry links to nothing (`previous_digest: null`), the usual genesis of a hash chain:
    // the interface does not show the proof's format, so the kit should follow the links all the same.
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.chain-links'],
    },
    // Other legal choices (the log's order, page size and link format are not shown): oldest first, at most
    // 10 entries a page (Kaminari's max_per_page clamps a larger `limit`), the first link 32 zero bytes.
    {
      name: 'with oldest-first pages of 10 and a zero-digest genesis link',
      options: { ...FAST, auditOldestFirst: true, auditMaxPerPage: 10, auditGenesis: 'zeros' as const },
      profile: PROFILE,
      judged: ['audit.chain-links', 'audit.entry-hash', 'audit.order'],
    },
  ],
});
