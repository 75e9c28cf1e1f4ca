// An independent deployment ("hickory", written from interface.md alone, NestJS behind a Kong-like gateway
// style) judged by the kit in process: without a deployment profile and with the profile declaring hickory's
// own choices, then with its other legal choices together
// (three runs: a tight window, judged for cedar and laurel already, is left to them to keep the CPU low).
import { fileURLToPath } from 'node:url';
import { startHickory } from './independent/hickory/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/hickory/hickory-profile.json', import.meta.url));

/** A short window, so the profile's bounded burst meets a 429 within a second or two. */
const FAST = { rateLimit: 300, windowMs: 5000 };

/**
 * hickory's other legal choices, in one run (each is "not shown" by the interface): Service-Version mandatory,
 * Kong's own headers (a gateway request id that is not meta.requestId), at-least-once webhook deliveries
 * relayed from an outbox after 1.5 s, unknown query parameters and unknown filter values refused (400),
 * case-insensitive filters, a stream the gateway cuts after 3 s and that starts from the first message when
 * no cursor is sent, an oldest-first audit log paged only by JSON:API `links.next`, date-times at +02:00,
 * connections suspended 1 s after activation, and 3-second tokens.
 */
const OTHER_CHOICES = {
  ...FAST,
  versionRequired: true,
  gatewayHeaders: true,
  duplicateDeliveries: true,
  relayDelayMs: 1500,
  strictQuery: true,
  strictFilterValues: true,
  caseInsensitiveFilters: true,
  streamMaxMs: 3000,
  streamFromStart: true,
  auditOldestFirst: true,
  auditLinksOnly: true,
  timeOffsetMin: 120,
  suspendAfterMs: 1000,
  tokenTtlS: 3,
};

independentSuite({
  deployment: 'hickory',
  start: startHickory,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    { name: 'with its other legal choices together', options: OTHER_CHOICES, profile: PROFILE, judged: PROFILE_JUDGED },
  ],
});
