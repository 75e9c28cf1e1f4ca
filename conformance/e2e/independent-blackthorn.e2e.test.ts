// An independent deployment ("blackthorn", written from interface.md alone, Clojure Ring + Reitit + Malli team
// style) judged by the kit in process: without a deployment profile, with the profile declaring its own
// choices, and with other legal choices (oldest-first audit pages of 5, 3 s tokens).
// Expected: no failed MUST or SHOULD, exit code 0, and the audit chain judged. The chain links by a kebab-case
// `prev-hash` (Muuntaja's key style): the kit follows `prevHash` and `prev_hash` but skips `prev-hash`
// ("no link to the previous one"), so the two runs requiring audit.chain-links fail until the kit reads it.
import { fileURLToPath } from 'node:url';
import { startBlackthorn } from './independent/blackthorn/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/blackthorn/blackthorn-profile.json', import.meta.url));

/** A short fixed window, so the profile's bounded burst meets a 429 within a second or two. */
const FAST = { rateLimit: 300, windowMs: 5000 };

independentSuite({
  deployment: 'blackthorn',
  start: startBlackthorn,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.chain-links', 'audit.entry-hash'],
    },
    // Other legal choices (order, page size and token lifetime are not shown): oldest first, 5 entries a
    // page by default (offset paging), tokens of 3 s that the kit must renew.
    {
      name: 'with oldest-first audit pages of 5 and 3 s tokens',
      options: { ...FAST, auditOldestFirst: true, auditDefaultLimit: 5, tokenTtlSec: 3 },
      profile: PROFILE,
      judged: ['audit.chain-links', 'audit.entry-hash', 'audit.order'],
    },
  ],
});
