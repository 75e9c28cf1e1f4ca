// An independent deployment ("pawpaw", written from interface.md alone, Kotlin Micronaut team style) judged
// by the kit in process: without a deployment profile, with the profile declaring pawpaw's own choices,
// and with other legal choices of its own (oldest-first audit pages of at most 10: at 5, the refused calls it
// records put the kit's changes past its reach on a loaded worker; 20 s tokens accepted by
// client_secret_post only, a stream that replays from the start and is cut after 1.5 s, an outbox relay,
// +01:00 dates, refusals audited, entity-named MAC columns, unknown capabilities 404, pretty-printed JSON
// and multi-line SSE data, a delivery log for 2026-07-01 callers only).
// Expected: no failed MUST or SHOULD, exit code 0.
import { fileURLToPath } from 'node:url';
import { startPawpaw } from './independent/pawpaw/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/pawpaw/pawpaw-profile.json', import.meta.url));

/** A 5 s window of 250 calls: the profile's burst of up to 1,200 calls in 20 s meets a 429 even on a loaded worker (a burst of 400 once straddled window resets there). */
const FAST = { rateLimit: 250, windowMs: 5000 };

independentSuite({
  deployment: 'pawpaw',
  start: startPawpaw,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.chain-links', 'audit.signature', 'webhooks.signature'],
    },
    // Micronaut Data's Page sorted by seq ascending, clamped by max-page-size 5; tokens of 20 s
    // (micronaut.security.token.generator.access-token.expiration) for form-posted client secrets only; a
    // stream read from the first message without a position and ended by an idle timeout; deliveries relayed
    // from an outbox by a 2 s @Scheduled job; ZonedDateTime in Europe/Berlin (+01:00); an audit filter that
    // also records refused calls; the AuditTrail's own column names (rowMac/previousRowMac: the kit reads no
    // chain there and skips audit.chain-links, a SHOULD); a catalog lookup that answers 404 for an unknown
    // capability; public routes rate-limited per address; Jackson's indentOutput (JSON over several lines, SSE
    // data over several `data:` lines); the delivery log routed for 2026-07-01 only (404 to 2026-06-12 callers).
    {
      name: 'with other legal choices (Page order, post-only tokens, outbox, +01:00, stream cut)',
      options: {
        ...FAST,
        auditOldestFirst: true,
        auditMaxPageSize: 10,
        tokenTtlSeconds: 20,
        tokenAuth: 'post' as const,
        streamFromStart: true,
        streamMaxMs: 1500,
        outbox: true,
        schedulerMs: 2000,
        utcOffsetMinutes: 60,
        auditRefused: true,
        auditMacNames: true,
        unknownCapability404: true,
        limitPublic: 2000,
        indentOutput: true,
        versionedDeliveryLog: true,
      },
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.order', 'audit.signature', 'audit.records-change'],
    },
  ],
});
