// An independent deployment ("larch", written from interface.md alone, enterprise Java/Spring Boot style)
// judged by the kit in process: without a deployment profile, with the profile declaring larch's own choices,
// with its Spring HATEOAS pages (oldest first), and with its other legal choices together.
import { fileURLToPath } from 'node:url';
import { startLarch } from './independent/larch/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/larch/larch-profile.json', import.meta.url));

/** larch's fixed window is 60 s in production; 3 s here, so the profile's burst meets a 429 in a second or two. */
const FAST = { windowMs: 3000, rateLimit: 300 };

independentSuite({
  deployment: 'larch',
  start: startLarch,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Spring HATEOAS PagedModel for the audit log and the delivery log (`_embedded.<rel>`, `_links.next.href`,
    // `page`), oldest first: the kit's changes are on a later page. The log's "response fields and further
    // parameters: not shown". When written, audit.records-change (MUST) failed: the kit did not follow
    // `_links.next.href` and asked for `page=<entries read>` although the document gives `page` as an index.
    {
      name: 'with HAL pages listed oldest first',
      options: { ...FAST, hal: true, auditOldestFirst: true },
      profile: PROFILE,
    },
    // Other legal choices together: Service-Version mandatory, the signing key left out of a replayed
    // registration ("issued exactly once"), refusals stored under their key, capabilities as a set ("a set of
    // capabilities"), production refused to a sandbox access, a 1 s Spring MVC stream timeout, a 1 s outbox relay,
    // and Spring Data's plain pages oldest first (`content`, `number`, `totalPages`, `last`: no links at all).
    {
      name: 'with its other legal choices together',
      options: {
        ...FAST,
        serviceVersionRequired: true,
        redactKeyOnReplay: true,
        storeRefusals: true,
        capabilitySet: true,
        productionForbidden: true,
        pageImpl: true,
        auditOldestFirst: true,
        streamTimeoutMs: 1000,
        relayDelayMs: 1000,
      },
      profile: PROFILE,
    },
  ],
});
