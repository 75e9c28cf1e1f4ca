// An independent deployment ("magnolia", written from interface.md alone, Hasura REST + Auth0 M2M tokens +
// a Hookdeck-style event gateway) judged by the kit in process: without a deployment profile, with the
// profile declaring magnolia's own choices, with its other legal choices together, and with an Auth0-style
// token endpoint that requires `audience`.
import { fileURLToPath } from 'node:url';
import { startMagnolia } from './independent/magnolia/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/magnolia/magnolia-profile.json', import.meta.url));

/** A short fixed window (300 calls per 5 s: the profile's bounded burst meets a 429 at 100 calls a second, also in a loaded run) and a 0.5 s linear retry step. */
const FAST = { rateLimit: 300, windowMs: 5000, retryStepMs: 500 };

independentSuite({
  deployment: 'magnolia',
  start: startMagnolia,
  timeout: 120_000,
  // The scheme read as "Bearer" only: RFC 9110 §11.1 reads it in any case, so the kit warns (a SHOULD: the
  // interface writes "Bearer" and says nothing of the case).
  warns: ['auth.scheme-case-insensitive'],
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Its other legal choices together: audit pages oldest first (offset paging, a `next` path), an unknown
    // Service-Version refused with 400, 3-second tokens, Hasura's own event-trigger payloads on the stream and
    // in deliveries, and a replay that repeats the original request id ("Sending the same key with the same
    // content returns the same response again"). The kit's advice stands on the last (SHOULD
    // generated.replay-own-request-id: requestId is the "identifier of this call", and a replay is a call
    // support may be asked about), so only MUSTs are held here.
    {
      name: 'with its other legal choices together',
      options: {
        ...FAST,
        auditOldestFirst: true,
        strictVersion: true,
        tokenTtl: 3,
        hasuraPayloads: true,
        replayOriginalRequestId: true,
      },
      profile: PROFILE,
      allow: 'should',
    },
    // Auth0 without a default audience refuses a token request that names none; the interface leaves the
    // authorization server's endpoints and parameters open ("not shown"): the profile declares the audience
    // (tokenRequestParams), sent beside grant_type.
    {
      name: 'with a token endpoint that requires an audience',
      options: { ...FAST, requireAudience: true },
      profile: PROFILE,
    },
  ],
});
