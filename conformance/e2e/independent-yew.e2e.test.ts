// An independent deployment ("yew", written from interface.md alone, ASP.NET Core behind an API gateway
// style) judged by the kit in process: without a deployment profile, with the profile declaring yew's own
// choices, and with its other legal choices together. Tried by hand with the CLI and passing (not run here, to
// keep the file cheap): times written at -05:00 (YEW_CLOCK_OFFSET_MINUTES, one per process) and 80 calls per 2 s.
import { fileURLToPath } from 'node:url';
import { startYew } from './independent/yew/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/yew/yew-profile.json', import.meta.url));

/** A short fixed window, so the profile's bounded burst meets a 429 within a second. */
const FAST = { rateLimit: 300, windowMs: 5000 };

/**
 * yew's other legal choices at once: Service-Version (or ?api-version) mandatory, failures as
 * application/problem+json, OData content-type parameters, 3 s tokens, CloudEvents
 * binary mode, the signing key left out of a replayed registration, a delivery log paged newest first 10 at a
 * time (ASP.NET OData's usual page size) and an audit log listed oldest first in pages of at most 25, both
 * continued by `@odata.nextLink` (OData's own name for the next page's link).
 */
const OTHER_CHOICES = {
  ...FAST,
  serviceVersionRequired: true,
  problemJson: true,
  odataContentType: true,
  tokenTtlSec: 3,
  cloudEventsBinary: true,
  redactKeyOnReplay: true,
  auditOldestFirst: true,
  auditMaxPage: 25,
  deliveryPageSize: 10,
};

independentSuite({
  deployment: 'yew',
  start: startYew,
  timeout: 120_000,
  runs: [
    // Undeclared, the kit reads the formula the proof states (`entryHashInput`) and recomputes every entry.
    { name: 'without a deployment profile', options: FAST, judged: ['audit.entry-hash'] },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // When written the kit did not follow `@odata.nextLink`: it read only the first page of the delivery log
    // (webhooks.delivery-log failed as MUST: its delivery was on page 2 by then) and of the oldest-first audit log
    // (audit.records-change skipped); both logs are now followed page by page.
    {
      name: 'with its other legal choices together',
      options: OTHER_CHOICES,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.records-change', 'audit.order', 'audit.entry-hash'],
    },
  ],
});
