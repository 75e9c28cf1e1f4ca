// An independent deployment ("buttonwood", written from interface.md alone, Scala Akka HTTP + Slick team style)
// judged by the kit in process: without a deployment profile, with the profile declaring buttonwood's own
// choices (delivery-attempts paths, X-Buttonwood-Signature, its '|'-joined hash chain), and with other legal
// choices of its own (5 s tokens, 1-based numbered audit pages of 10 oldest first, base64 digests, a stream replaying from its start, Service-Version mandatory).
import { fileURLToPath } from 'node:url';
import { startButtonwood } from './independent/buttonwood/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/buttonwood/buttonwood-profile.json', import.meta.url));

/** A 5 s token bucket of 250 calls (50 a second), so the profile's burst of 1200 meets a 429 even on a slow worker. */
const FAST = { rateLimit: 250, windowMs: 5000 };

independentSuite({
  deployment: 'buttonwood',
  start: startButtonwood,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.entry-hash', 'webhooks.signature'],
    },
    // Other legal choices: token lifetime, the audit page size and the digests' encoding are not shown.
    {
      name: 'with 5 s tokens, numbered oldest-first audit pages, base64 digests, a replaying stream and a mandatory Service-Version',
      options: {
        ...FAST,
        tokenTtlSec: 5,
        auditPaging: 'page' as const,
        auditOldestFirst: true,
        auditPageSize: 10,
        auditMaxPageSize: 10,
        auditEncoding: 'base64' as const,
        streamFromStart: true,
        serviceVersionRequired: true,
      },
    },
  ],
});
