// An independent deployment ("sequoia", written from interface.md alone, Kotlin http4k style: lenses,
// opaque client-credentials tokens, a transactional outbox, a Merkle-chained audit journal, a
// Resilience4j-style rate limiter) judged by the kit in process: without and with its deployment profile,
// then with its other legal choices switched on, then with a tight limiter.
import { fileURLToPath } from 'node:url';
import { startSequoia } from './independent/sequoia/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/sequoia/sequoia-profile.json', import.meta.url));

/** A short refresh period, so the profile's bounded burst meets a 429 within seconds. */
const FAST = { limitForPeriod: 300, limitRefreshPeriodMs: 2000 };

independentSuite({
  deployment: 'sequoia',
  start: startSequoia,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Legal choices the interface leaves open, all at once: a missing tenant header refused 403, an unknown
    // Service-Version refused 400, unknown body fields refused, the audit log oldest first paged by a Link
    // header that also records refused modifying calls, a replayed webhook registration with its key redacted,
    // numeric ids, streams ended after 3 s (clients resume), a slow outbox poller (1.5 s).
    {
      name: 'with its other legal choices',
      options: {
        ...FAST,
        tenantMissing: 'forbidden',
        serviceVersion: 'strict',
        strictBodies: true,
        auditOldestFirst: true,
        redactSecretOnReplay: true,
        outboxPollMs: 1500,
        auditRefusals: true,
        numericIds: true,
        streamRotateMs: 3000,
      },
      profile: PROFILE,
    },
    // A tight limiter (its values are not shown): the kit meets 429s in its own calls and waits them out.
    { name: 'with 40 permits per 2 s', options: { limitForPeriod: 40, limitRefreshPeriodMs: 2000 }, allow: 'should' },
  ],
});
