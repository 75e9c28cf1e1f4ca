// An independent deployment ("walnut", written from interface.md alone, Django REST Framework style on
// node:http) judged by the kit in process: without a deployment profile and with the profile declaring
// walnut's own choices, then with two other legal choices of walnut's switched on.
import { fileURLToPath } from 'node:url';
import { startWalnut } from './independent/walnut/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/walnut/walnut-profile.json', import.meta.url));

/** A short throttle window, so the profile's bounded burst (1200 calls) meets a 429 within a second. */
const FAST = { rateLimit: 300, windowMs: 5000 };

independentSuite({
  deployment: 'walnut',
  start: startWalnut,
  runs: [
    // Undeclared, the kit reads the entry formula the answer publishes (`{field}` template) and recomputes it.
    { name: 'without a deployment profile', options: FAST, judged: ['audit.entry-hash'] },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Other legal choices together: Service-Version mandatory (not shown whether it is), a replayed webhook
    // registration without its signing key ("issued exactly once"), times in a +01:00 zone (Django
    // TIME_ZONE), audit pages of at most 3 entries (DRF max_limit: the kit follows the absolute next URLs),
    // and streams the server ends every 1.5 s (clients resume with Last-Event-ID).
    {
      name: 'with its other legal choices',
      options: {
        ...FAST,
        serviceVersionRequired: true,
        redactKeyOnReplay: true,
        utcOffsetMinutes: 60,
        auditMaxLimit: 3,
        streamMaxMs: 1500,
        heartbeatMs: 500,
      },
      profile: PROFILE,
    },
    // A delivery log served one entry per page (DRF max_limit 1; the interface shows neither its paths nor its
    // payloads), newest first, with absolute next URLs. The kit follows next for ten pages; when written it then
    // failed webhooks.delivery-log (MUST) although next still pointed on: a log offering more pages than the kit
    // reads is now out of its reach (skipped, said), not missing the delivery.
    { name: 'with one delivery per delivery-log page', options: { ...FAST, deliveryMaxLimit: 1 }, profile: PROFILE },
  ],
});
