// An independent deployment ("persimmon", written from interface.md alone, Haskell Servant + Persistent
// team style) judged by the kit in process: without a deployment profile, with the profile declaring
// persimmon's own choices, and with other legal choices (base64 audit digests with no genesis link, pages
// of 5, 60 s tokens, an outbox relaying stream messages and deliveries 1.5 s late).
// Expected: no failed MUST or SHOULD, exit code 0, and the profile's checks judged.
import { fileURLToPath } from 'node:url';
import { startPersimmon } from './independent/persimmon/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/persimmon/persimmon-profile.json', import.meta.url));

/** A small token bucket refilled fast: a full run fits, the profile's bounded burst drains it in a second. */
const FAST = { bucketSize: 300, refillPerSecond: 100 };

independentSuite({
  deployment: 'persimmon',
  start: startPersimmon,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.entry-hash'],
    },
    // Other legal choices (the proof's format, the log's page size, token lifetimes and latencies are not
    // shown): digests as cryptonite's Base64, the first entry without a `prevHash` key (aeson omits a
    // Nothing), pages of 5 (a larger `limit` clamped), 60 s tokens, and a background outbox worker that
    // relays stream messages and webhook deliveries 1.5 s after the change.
    {
      name: 'with base64 digests, no genesis link, pages of 5, 60 s tokens and a 1.5 s outbox',
      options: {
        ...FAST,
        auditEncoding: 'base64' as const,
        auditGenesis: 'omitted' as const,
        auditPageSize: 5,
        auditMaxLimit: 5,
        tokenSeconds: 60,
        outboxDelayMs: 1500,
      },
      judged: ['audit.chain-links', 'audit.entry-hash', 'audit.order', 'webhooks.delivery-log', 'webhooks.redelivery'],
    },
  ],
});
