// An independent deployment ("quince", written from interface.md alone, Kotlin Ktor on Cloud Run behind
// Apigee style) judged by the kit in process: without a deployment profile and with the profile declaring
// quince's own choices, then with two sets of its other legal choices.
import { fileURLToPath } from 'node:url';
import { startQuince } from './independent/quince/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/quince/quince-profile.json', import.meta.url));

/** A 5 s quota window (quince's own default: 20 per 1 s), so the profile's bounded burst meets a 429 at once. */
const FAST = { rateLimit: 300, windowMs: 5000, retryDelaysMs: [500, 1000] };

independentSuite({
  deployment: 'quince',
  start: startQuince,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Service-Version mandatory (missing: 400 invalid_request, refused before the quota counts the call, like
    // the unknown-version refusal), meta.version always the current one, and streams ending after 1.5 s (the
    // Cloud Run timeout, shortened). The kit warns (SHOULD responses.rate-limit-headers-uncounted) that the
    // missing-version 400 carries no X-RateLimit-* headers: the warning the README promises for an answer
    // refused before counting (birch earns the same one); no MUST.
    {
      name: 'with Service-Version mandatory, the version pinned and 1.5 s streams',
      options: { ...FAST, serviceVersionRequired: true, pinVersion: true, streamMaxMs: 1500 },
      profile: PROFILE,
      allow: 'should',
    },
    // Cloud Pub/Sub's push form: message.data is base64 of the event JSON. The interface shows no webhook
    // body; the kit failed webhooks.delivery-arrives (MUST) because no delivery "named the connection" in
    // plain text, though every signed delivery arrived (fixed in general: base64 strings are read decoded).
    {
      name: 'with base64 Pub/Sub message data',
      options: { ...FAST, base64Data: true },
      profile: PROFILE,
      judged: ['webhooks.delivery-arrives', 'webhooks.signature'],
    },
  ],
});
