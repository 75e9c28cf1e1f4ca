// An independent deployment ("teak", written from interface.md alone, Crystal/Kemal team style) judged by
// the kit in process: without a deployment profile, with the profile declaring teak's own choices, and with
// other legal choices of its own (oldest-first audit pages of at most 10, one-minute tokens).
// Expected: no failed MUST or SHOULD, exit code 0, and the audit chain judged with the profile.
import { fileURLToPath } from 'node:url';
import { startTeak } from './independent/teak/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/teak/teak-profile.json', import.meta.url));

/** A 5 s window of 250 calls: the profile's burst of up to 1,200 calls in 20 s meets a 429 even on a loaded worker (a burst of 400 once straddled window resets there). */
const FAST = { rateLimit: 250, windowMs: 5000 };

independentSuite({
  deployment: 'teak',
  start: startTeak,
  timeout: 120_000,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.entry-hash'],
    },
    // Other legal choices (the log's order and paging (here an opaque `?cursor=` named by `data.next_cursor`), the token endpoint's parameters and lifetimes, and
    // whether Service-Version is mandatory are not shown): oldest first, a `limit` clamped to 10 a page,
    // one-minute tokens issued only to form-posted credentials (HTTP Basic refused), Service-Version required,
    // and the chain head signed with Ed25519 (the proof's format is the deployment's own).
    {
      name: 'with oldest-first cursor pages of 10, a signed chain head, form-only one-minute tokens and a required Service-Version',
      options: {
        ...FAST,
        auditOldestFirst: true,
        auditMaxPerPage: 10,
        tokenTtlSec: 60,
        tokenAuth: 'post' as const,
        versionRequired: true,
        auditSigned: true,
        auditPaging: 'cursor' as const,
      },
      profile: PROFILE,
      judged: ['audit.entry-hash', 'audit.order', 'audit.signature'],
    },
  ],
});
