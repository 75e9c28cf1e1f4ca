// An independent deployment ("wisteria", written from interface.md alone, Java Spring Boot style: HATEOAS
// links, Spring Data pages, an RSA-PSS signed audit log with a JWK set) judged by the kit in process:
// without a deployment profile and with the profile declaring wisteria's own choices.
import { fileURLToPath } from 'node:url';
import { startWisteria } from './independent/wisteria/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/wisteria/wisteria-profile.json', import.meta.url));

/** A short fixed window, so the profile's bounded burst meets a 429 within a few seconds. */
const FAST = { rateLimit: 300, windowMs: 5000 };

independentSuite({
  deployment: 'wisteria',
  start: startWisteria,
  concurrent: false,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Other legal choices at once: the audit log oldest first (its order is not shown), Service-Version
    // required (whether it is mandatory is not shown), query parameters an operation does not take refused
    // (400 invalid_request: "request incomplete or unsuitable"), and the delivery log hidden from a caller pinned
    // to 2026-06-12 (it was added in 2026-07-01).
    {
      name: 'with a strict, version-pinned variant',
      options: {
        ...FAST,
        auditOldestFirst: true,
        serviceVersionRequired: true,
        strictQuery: true,
        deliveryLogSinceCurrent: true,
      },
      profile: PROFILE,
      judged: PROFILE_JUDGED,
    },
    // An oldest-first log of two entries a page: a run's changes lie past the kit's page budget (40 pages), on
    // the last pages, which the log names (`_links.last`, Spring Data's `page.totalPages`): read from there.
    {
      name: 'with an oldest-first log of two entries a page',
      options: { ...FAST, auditOldestFirst: true, maxPageSize: 2 },
      judged: ['audit.records-change', 'audit.order'],
    },
  ],
});
