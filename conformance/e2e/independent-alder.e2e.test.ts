// An independent deployment ("alder", written from interface.md alone, Rails-monolith style: numeric
// autoincrement ids, snake_case extras, `requested` -> `active`, a token bucket, a hash-chained audit log
// oldest first with page/per_page and a Link header) judged by the kit in process: without a deployment
// profile, with the profile declaring alder's own choices, and with two further legal choices switched on.
import { fileURLToPath } from 'node:url';
import { startAlder } from './independent/alder/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/alder/alder-profile.json', import.meta.url));

/** A bucket of 200 refilled over 5 s: the run's ~370 calls fit, the profile's bounded burst meets a 429 at once. */
const FAST = { rateLimit: 200, windowMs: 5000 };

independentSuite({
  deployment: 'alder',
  start: startAlder,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Other legal choices: Service-Version mandatory ("Whether the header is mandatory ...: not shown") and
    // the audit log newest first (its order and paging are not shown).
    {
      name: 'with Service-Version required and the audit log newest first',
      options: { ...FAST, serviceVersionRequired: true, auditNewestFirst: true },
      profile: PROFILE,
    },
  ],
});
