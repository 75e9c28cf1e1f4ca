// An independent deployment ("sycamore", written from interface.md alone by a PHP/Laravel-minded team porting to
// Node) judged by the kit in process: without a deployment profile, with the profile declaring sycamore's own
// choices, and with its other legal choices switched on. Expected: no failed MUST or SHOULD, exit code 0.
import { fileURLToPath } from 'node:url';
import { startSycamore } from './independent/sycamore/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/sycamore/sycamore-profile.json', import.meta.url));

/** A short fixed window, so the profile's bounded burst (1200 calls at most) meets a 429 within seconds. */
const FAST = { rateLimit: 300, windowMs: 5000 };

independentSuite({
  deployment: 'sycamore',
  start: startSycamore,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Other legal choices where the interface says "not shown": Service-Version mandatory on authenticated calls,
    // an oldest-first audit log capped at 15 entries a page (Laravel's paginate()), the delivery log (added in
    // 2026-07-01) refused with 404 to a caller asking for 2026-06-12, a slow activation (pending for 2 s), deliveries
    // sent by a queue worker half a second later, refusals after validation replayed under their key ("the same
    // response again"), a tenant that does not exist answered 404 (wrong identifier) rather than 403, query
    // parameters a GET does not take refused with 400, issued keys bound to the operation they name, and a resend
    // that sends the same delivery record again (same id) instead of a new one.
    {
      name: 'with its other legal choices switched on',
      options: {
        ...FAST,
        serviceVersionRequired: true,
        auditOldestFirst: true,
        auditMaxPerPage: 15,
        versionGatedDeliveryLog: true,
        activationMs: 2000,
        queueDelayMs: 500,
        replayRefusals: true,
        unknownTenantNotFound: true,
        strictQuery: true,
        bindIssuedKeys: true,
        resendSameDelivery: true,
      },
      profile: PROFILE,
    },
  ],
});
