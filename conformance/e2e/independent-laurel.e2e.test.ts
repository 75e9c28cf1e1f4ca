// An independent deployment ("laurel", written from interface.md alone, Python FastAPI behind Traefik
// style) judged by the kit in process: without a deployment profile and with the profile declaring
// laurel's own choices, then with a tight token bucket and with a security audit trail.
import { fileURLToPath } from 'node:url';
import { startLaurel } from './independent/laurel/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/laurel/laurel-profile.json', import.meta.url));

/** A short refill window, so the profile's bounded burst meets a 429 within a second. */
const FAST = { rateLimit: 200, windowMs: 5000 };

independentSuite({
  deployment: 'laurel',
  start: startLaurel,
  timeout: 120_000,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Another legal choice: a tight bucket (its values are not shown) that answers some of the kit's calls 429.
    { name: 'with 60 calls per 2 s', options: { rateLimit: 60, windowMs: 2000 }, allow: 'should' },
    // A security audit trail: the log (oldest first, paged by cursor) also records refused modifying calls
    // (operation, status, code and the Idempotency-Key, no body values). The interface names the log's purpose
    // ("traceable changes of the tenant") but neither its fields nor that a refusal must stay out of it: the
    // kit judged it a MUST failure when laurel was written (now an attempt on record, noted).
    {
      name: 'with refused calls in an oldest-first audit log',
      options: { ...FAST, auditOldestFirst: true, auditRefusals: true },
      profile: PROFILE,
    },
  ],
});
