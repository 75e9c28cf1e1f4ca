// An independent deployment ("mesquite", written from interface.md alone, Ballerina service behind WSO2
// Choreo's gateway) judged by the kit in process: without a deployment profile, with the profile declaring
// mesquite's own choices, and with other legal choices of its own (a separate STS, short tokens, CloudEvents
// deliveries, a base64 chain read oldest first). Expected: no failed MUST or SHOULD, exit code 0.
import { fileURLToPath } from 'node:url';
import { startMesquite } from './independent/mesquite/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/mesquite/mesquite-profile.json', import.meta.url));

/** A Choreo tier scaled down: 250 calls per 5 s window (50 a second), so the profile's burst meets a 429 soon. */
const FAST = { rateLimit: 250, windowMs: 5000 };

independentSuite({
  deployment: 'mesquite',
  start: startMesquite,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.entry-hash', 'audit.signature'],
    },
    // Other legal choices of a Choreo deployment (none of them shown by the interface): the token endpoint on its
    // own host (Choreo's STS) taking only client_secret_post, 5 s tokens, keys scoped per OAuth application,
    // CloudEvents deliveries from an outbox drained every 1.5 s with the key under `credentials.hmacSecret`,
    // connections PROVISIONING then ACTIVE 200 ms later (a second stream message), refusals replayed under their
    // key, a stream numbered from 0, an unknown connector answered as a decision, and an audit chain of
    // base64 digests linking first to nil, read oldest first in pages of at most 3. No profile: found, not declared.
    {
      name: 'with a separate STS, 5 s tokens, CloudEvents from an outbox and a base64 chain in pages of 3',
      options: {
        ...FAST,
        separateSts: true,
        tokenAuth: 'post' as const,
        tokenSeconds: 5,
        keyScope: 'client' as const,
        cloudEvents: true,
        deliveryDelayMs: 1500,
        activationMs: 200,
        storeRefusals: true,
        streamStart: 0,
        unknownConnectorDecision: true,
        auditEncoding: 'base64' as const,
        auditGenesis: 'nil' as const,
        auditOldestFirst: true,
        auditMaxLimit: 3,
      },
      judged: ['audit.signature', 'audit.order', 'webhooks.secret-once', 'webhooks.signature'],
    },
  ],
});
