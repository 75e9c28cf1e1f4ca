// An independent deployment ("bamboo", written from interface.md alone, Rust axum + tower behind Ory
// Hydra with Svix-like webhooks) judged by the kit in process: without a deployment profile and with the
// profile declaring bamboo's choices, then with Service-Version mandatory and an oldest-first audit log.
import { fileURLToPath } from 'node:url';
import { startBamboo } from './independent/bamboo/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/bamboo/bamboo-profile.json', import.meta.url));

/** A 5 s quota window (the profile's bounded burst meets a 429 at once) and the Svix schedule at 1/10. */
const FAST = { rateLimit: 200, windowMs: 5000, retryScale: 0.1 };

independentSuite({
  deployment: 'bamboo',
  start: startBamboo,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Other legal choices: Service-Version mandatory ("Whether the header is mandatory …: not shown"), the
    // audit log oldest first, paged by opaque cursor ("Response fields and further parameters: not shown"),
    // unknown query parameters refused (serde on Query<T>), 2 s tokens from a client_secret_post-only Hydra
    // client, SSE without `event:` lines, each stream ended after 1.5 s, governor's GCRA instead of a window. The version layer sits before
    // authentication, so its 400 carries no X-RateLimit headers: the kit sends it again without the token, gets
    // the same 400, and leaves it out of responses.rate-limit-headers-uncounted (no access to count against).
    {
      name: 'with Service-Version mandatory and other legal choices',
      options: {
        ...FAST,
        serviceVersionRequired: true,
        auditOldestFirst: true,
        strictQuery: true,
        tokenAuthMethod: 'client_secret_post' as const,
        tokenTtlSeconds: 2,
        streamUnnamed: true,
        streamMaxMs: 1500,
        rateAlgorithm: 'gcra' as const,
      },
      profile: PROFILE,
    },
  ],
});
