// An independent deployment ("catalpa", written from interface.md alone, enterprise Java/Spring style) judged
// by the kit in process: without a deployment profile and with the profile declaring catalpa's own choices,
// then with other legal choices switched on (a mandatory Service-Version, Standard Webhooks bodies, ...).
import { fileURLToPath } from 'node:url';
import { startCatalpa } from './independent/catalpa/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/catalpa/catalpa-profile.json', import.meta.url));

/** A 5 s window (catalpa's is 30 s), so the profile's bounded burst meets a 429 within seconds. */
const FAST = { rateLimit: 300, windowMs: 5000 };

independentSuite({
  deployment: 'catalpa',
  start: startCatalpa,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Whether Service-Version is mandatory and the audit log's order are not shown: catalpa can require the header
    // (the kit sends it on every call) and list its audit chain oldest first, paged by nextCursor.
    {
      name: 'with Service-Version required and an oldest-first audit log',
      options: { ...FAST, serviceVersionRequired: true, auditOldestFirst: true },
      profile: PROFILE,
    },
    // Other legal choices at once: Standard Webhooks bodies ({type, timestamp, data}, the id in webhook-id only)
    // with its own webhook-signature header too, a resend with its own webhook-id, an unknown connector decided
    // "not allowed" instead of 404, production connections with a critical capability held DISABLED, issued keys
    // bound to their operation, the delivery log refused to 2026-06-12 callers, and :keepalive every 250 ms.
    {
      name: 'with Standard Webhooks bodies and other switches',
      options: {
        ...FAST,
        standardPayload: true,
        standardSignature: true,
        resendNewMessageId: true,
        unknownConnectorDecision: true,
        productionDisabled: true,
        bindIssuedKeys: true,
        legacyNoDeliveryLog: true,
        keepAliveMs: 250,
      },
      profile: PROFILE,
    },
  ],
});
