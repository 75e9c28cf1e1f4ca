// An independent deployment ("hawthorn", written from interface.md alone, Java Quarkus style: a JWT token
// service, Bean Validation envelopes, Bucket4j buckets, a Kafka-style webhook outbox, an audit table with a
// SHA-256 chain and Merkle checkpoints) judged by the kit in process: without a deployment profile, with
// the profile declaring hawthorn's choices, and with a set of other legal choices switched on at once.
// Expected to fail (reported, not fixed): webhooks.registration-replay in the first two runs. A replayed
// registration leaves the signing key out ("The signing key is issued exactly once in the response") and
// says where it went (data.signing.keyShown); the kit accepts the key left out or masked, but not the note.
import { fileURLToPath } from 'node:url';
import { startHawthorn } from './independent/hawthorn/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/hawthorn/hawthorn-profile.json', import.meta.url));
/**
 * The same profile declaring the kit's default stream wait (10 s) for the stress variant: streams cut every second,
 * a 1 s relay and a bucket answering some of the kit's calls 429 (whose Retry-After holds the run's calls) put a
 * message past 5 s now and then on a loaded machine (twice in about 35 clean-clone runs: sessions 32 and 34).
 */
const STRESS_PROFILE = fileURLToPath(new URL('./independent/hawthorn/hawthorn-stress-profile.json', import.meta.url));

/** A bucket that refills in 5 s, so the profile's bounded burst meets a 429 quickly; retries 200 ms apart. */
const FAST = { rateLimit: 300, windowMs: 5000, retryDelayMs: 200 };

independentSuite({
  deployment: 'hawthorn',
  start: startHawthorn,
  timeout: 120_000,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Each is what the interface leaves open ("not shown"): Service-Version mandatory, 4 s tokens, Basic
    // refused (client_secret_post only), unknown query parameters refused, streams ended after 1 s with
    // keep-alives every 100 ms, deliveries relayed 1 s after their event, the replay without the key, the
    // audit proof naming sha256/RFC8785, and a tight bucket (60 calls per 3 s) that answers some calls 429.
    {
      name: 'with other legal choices and 60 calls per 3 s',
      options: {
        ...FAST,
        rateLimit: 60,
        requireServiceVersion: true,
        tokenTtlSeconds: 4,
        tokenPostOnly: true,
        strictQuery: true,
        streamMaxMs: 1000,
        keepAliveMs: 100,
        relayDelayMs: 1000,
        replayKey: 'omit' as const,
        auditProofLabels: true,
      },
      profile: STRESS_PROFILE,
      allow: 'should',
    },
  ],
});
