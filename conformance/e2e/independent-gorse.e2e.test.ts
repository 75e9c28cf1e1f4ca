// An independent deployment ("gorse", written from interface.md alone, Rust/Axum edge style on node:http)
// judged by the kit in process: without a deployment profile and with the profile declaring gorse's choices.
// Expected: no failed MUST, no failed SHOULD, exit code 0. Each run gets a fresh gorse.
import { fileURLToPath } from 'node:url';
import { startGorse } from './independent/gorse/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/gorse/gorse-profile.json', import.meta.url));

independentSuite({
  deployment: 'gorse',
  start: startGorse,
  timeout: 180_000,
  runs: [
    { name: 'without a deployment profile' },
    { name: 'with its deployment profile', profile: PROFILE, judged: PROFILE_JUDGED },
    // Short-lived tokens (lifetimes are "not shown"): the kit must renew its token during the run.
    { name: 'with 3 s tokens', profile: PROFILE, options: { tokenLifetimeS: 3 }, allow: 'should' },
    // Other legal choices at once: streams an edge runtime ends after 1.5 s, the signing key left out of a
    // replayed registration, connections suspended after going live, unknown query parameters refused,
    // a check of an unknown connector answered 404, every webhook delivery sent twice (at least once).
    {
      name: 'with its other legal choices',
      profile: PROFILE,
      options: {
        streamMaxMs: 1500,
        redactSecretOnReplay: true,
        liveAfterMs: 300,
        suspendAfterMs: 500,
        strictQuery: true,
        unknownConnector404: true,
        duplicateDeliveries: true,
      },
    },
    // A token bucket (60 calls, 12 refilled a second: a whole run still meets its 429s): Remaining may stay
    // level between two calls because the bucket refilled meanwhile ("The current values and the length of
    // the window: not shown").
    { name: 'with a small token bucket', profile: PROFILE, options: { bucketSize: 60, refillPerSecond: 12 } },
    // An Axum `Json<T>` extractor refuses a POST without a JSON content type, also the bodyless resend of a
    // delivery (its payload is "not shown"; the profile has no field to declare one).
    {
      name: 'requiring application/json on every POST',
      profile: PROFILE,
      options: { strictContentType: true },
      allow: 'should',
    },
  ],
});
