// An independent deployment ("yarrow", written from interface.md alone, PHP Symfony / API Platform behind
// Varnish style) judged by the kit in process: without a deployment profile and with the profile declaring
// yarrow's own choices, then with Service-Version mandatory and a newest-first audit log, then with its
// other switches together.
import { fileURLToPath } from 'node:url';
import { startYarrow } from './independent/yarrow/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/yarrow/yarrow-profile.json', import.meta.url));

/** A short fixed window, so the profile's bounded burst meets a 429 within a second. */
const FAST = { rateLimit: 200, windowMs: 5000 };

independentSuite({
  deployment: 'yarrow',
  start: startYarrow,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Other legal choices: the version header mandatory ("whether the header is mandatory ...: not shown"),
    // and the audit log newest first (its order is not shown). The 400 for a missing Service-Version comes
    // before authentication and carries no X-RateLimit headers: no access to count against, no warning.
    {
      name: 'with Service-Version mandatory and a newest-first audit log',
      options: { ...FAST, serviceVersionRequired: true, auditNewestFirst: true },
      profile: PROFILE,
    },
    // More legal choices at once: a delivery log paged one entry at a time (Link rel="next"), the signing key
    // shown again in a replayed registration ("the same response again"), an unknown connector decided "not
    // allowed" rather than 404, API Platform's violations list beside error.detail, a slower Messenger worker,
    // refused creations stored under their key and answered again (Stripe-like), connections newest first, and
    // the audit chain's links named hash/prevHash (so audit.chain-links follows yarrow's SHA-384 chain).
    {
      name: 'with its other switches (paged delivery log, key in replays, stored refusals, 1 s worker, …)',
      options: {
        ...FAST,
        deliveryPageSize: 1,
        replaySecret: true,
        unknownConnectorDecided: true,
        violationsField: true,
        messengerDelayMs: 1000,
        storeRefusals: true,
        connectionsNewestFirst: true,
        auditHashNames: true,
      },
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.chain-links'],
    },
  ],
});
