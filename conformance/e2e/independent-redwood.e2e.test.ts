// An independent deployment ("redwood", written from interface.md alone, serverless/edge team following
// Google's AIPs: prefixed UUIDv7 ids, UPPER_CASE states, CloudEvents on the stream and in webhooks signed in
// `ce-signature`, an AIP custom method for redelivery, an Ed25519-signed audit checkpoint) judged by the kit
// in process: without a deployment profile, with its profile, and with its other legal choices switched on.
import { fileURLToPath } from 'node:url';
import { startRedwood } from './independent/redwood/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/redwood/redwood-profile.json', import.meta.url));

/** Fixed windows of 5 s instead of 10 s, so the profile's bounded burst meets a 429 within a second. */
const FAST = { rateLimit: 300, windowMs: 5000, readyAfterMs: 100 };

independentSuite({
  deployment: 'redwood',
  start: startRedwood,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Other legal choices: Service-Version mandatory ("Whether the header is mandatory ...: not shown") and the
    // audit log listed newest first (its "Response fields and further parameters: not shown").
    {
      name: 'with Service-Version mandatory and the audit log newest first',
      options: { ...FAST, serviceVersionRequired: true, auditNewestFirst: true },
      profile: PROFILE,
    },
    // AIP resources (AIP-122): receivers and deliveries carry only their resource name ("webhooks/whk_…",
    // "webhookDeliveries/dlv_…"), no `id` ("Response fields: not shown"; the delivery log's "paths and payloads are
    // not shown"), and lists are named by the resource plural (`webhookDeliveries`, `auditEntries`). The kit reads
    // the id from the name's last segment (support/one-list.ts resourceNameId); before, it skipped
    // webhooks.delivery-log and webhooks.redelivery although the profile declares their paths.
    {
      name: 'with AIP resource names instead of ids',
      options: { ...FAST, aipNames: true },
      profile: PROFILE,
      judged: PROFILE_JUDGED,
    },
  ],
});
