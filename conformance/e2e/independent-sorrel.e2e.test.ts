// An independent deployment ("sorrel", written from interface.md alone, Kotlin Javalin team style) judged by the
// kit in process: without a deployment profile, with the profile declaring sorrel's own choices, and with other
// legal choices of its own (an Ed25519-signed chain head, audit pages of at most 10, 8 s tokens, epoch-millisecond log times).
// Expected: no failed MUST or SHOULD, exit code 0, and the profile's checks and the audit proof judged.
import { fileURLToPath } from 'node:url';
import { startSorrel } from './independent/sorrel/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/sorrel/sorrel-profile.json', import.meta.url));

/** A short bucket4j refill interval (250 calls per 5 s), so the profile's bounded burst meets a 429 quickly. */
const FAST = { rateLimit: 250, windowMs: 5000 };

independentSuite({
  deployment: 'sorrel',
  start: startSorrel,
  timeout: 120_000,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.entry-hash', 'audit.chain-links'],
    },
    // Other legal choices (the proof's format, the page size, token lifetimes and the audit and delivery logs'
    // fields are not shown): the chain head signed with Ed25519 (public JWK beside it), `limit` clamped to 10,
    // Keycloak access tokens of 8 s, those logs' instants as epoch milliseconds (WRITE_DATES_AS_TIMESTAMPS), and
    // Service-Version mandatory (400 without it; whether it is mandatory is not shown).
    {
      name: 'with a signed chain head, pages of 10, 8 s tokens, epoch-millisecond log times, mandatory Service-Version',
      options: {
        ...FAST,
        signedProof: true,
        auditMaxLimit: 10,
        tokenTtlSeconds: 8,
        epochDates: true,
        requireServiceVersion: true,
      },
      profile: PROFILE,
      judged: ['audit.signature', 'audit.chain-links', 'webhooks.redelivery'],
    },
  ],
});
