// An independent deployment ("ailanthus", written from interface.md alone, Java Helidon SE team style: JSON-B
// key order without nulls, Oracle sequences and OffsetDateTime, IDCS-style /oauth2/v1/token, numeric webhook
// and delivery ids, an Oracle blockchain-table-like SHA2-512 row-hash chain) judged by the kit in process:
// without a profile, with its profile, and with other legal choices of its own.
import { fileURLToPath } from 'node:url';
import { startAilanthus } from './independent/ailanthus/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/ailanthus/ailanthus-profile.json', import.meta.url));

/** A Resilience4j limiter of 250 permits per 5 s: the profile's burst (1200 calls in 20 s) meets a 429. */
const FAST = { rateLimit: 250, windowMs: 5000 };

independentSuite({
  deployment: 'ailanthus',
  start: startAilanthus,
  runs: [
    // The chain's first row links to 128 zero digits here (the default omits the link: JSON-B drops nulls).
    { name: 'without a deployment profile, a zero genesis link', options: { ...FAST, auditGenesis: 'zeros' as const } },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.entry-hash', 'audit.chain-links', 'audit.order'],
    },
    // Other legal choices: the audit log oldest first, pages clamped to 10 rows
    // (ORDS / Kaminari clamp a larger `limit`), paging told in the body only (`limit`, `offset`, `hasMore`;
    // `limit` and `offset` are the operations' documented query parameters), 60 s tokens, JSON-P pretty printing
    // (multi-line `data:` and delivery bodies) and a mandatory Service-Version header.
    // KNOWN WRONG VERDICTS, left failing for the kit's fix:
    // - MUST webhooks.delivery-log (and webhooks.redelivery, when the delivery is on the first page but has left
    //   it after the repeat): read only the delivery log's first page ("10 entries, none naming it" while the
    //   page says hasMore: true) and fail instead of paging by offset or skipping.
    // - MUST audit.records-change: reads one page of 10 rows asking for 50, takes it for the whole log though it
    //   says limit: 10, hasMore: true, and fails ("no entry names it") instead of skipping as for a full page.
    // - audit.chain-links (a skip, so a judged expectation fails): "no link to the previous one" because the
    //   first row oldest first carries no prevRowHash (its null omitted), though every later row does.
    {
      name: 'with oldest-first clamped pages, body-only paging, 60 s tokens, pretty JSON, mandatory Service-Version',
      options: {
        ...FAST,
        auditOldestFirst: true,
        maxPageSize: 10,
        tokenTtlSec: 60,
        pagingLinkHeader: false,
        prettyJson: true,
        requireServiceVersion: true,
      },
      profile: PROFILE,
      judged: ['audit.entry-hash', 'audit.chain-links', 'audit.order', ...PROFILE_JUDGED],
    },
  ],
});
