// An independent deployment ("kauri", written from interface.md alone, in the style of an integration-platform
// team on Apache Camel's REST DSL with Keycloak RS256 tokens, Kafka offsets as stream numbers, an Idempotent
// Consumer on a JDBC-like repository, Resilience4j rate limiting, an http: producer with a redelivery policy and
// dead-letter channel, and an audit hash chain anchored by a signed daily root), judged by the kit in process:
// without a deployment profile (a short Resilience4j period of 300 calls per 5 s), with its profile
// (PROFILE_JUDGED), and with other legal choices (NZDT offsets, short tokens, offsets from 100000, a lifecycle,
// an unknown Service-Version served as the current one, a shorter redelivery policy), with the profile.
import { fileURLToPath } from 'node:url';
import { startKauri } from './independent/kauri/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const KAURI_PROFILE = fileURLToPath(new URL('./independent/kauri/kauri-profile.json', import.meta.url));

independentSuite({
  deployment: 'kauri',
  start: startKauri,
  runs: [
    { name: 'without a deployment profile', options: { limitForPeriod: 300, limitRefreshPeriodMs: 5000 } },
    { name: 'with its deployment profile', profile: KAURI_PROFILE, judged: PROFILE_JUDGED },
    {
      name: 'with its other legal choices (NZDT offsets, short tokens, high offsets, lifecycle, version fallback)',
      options: {
        zoneOffsetMinutes: 780,
        tokenTtlSeconds: 60,
        firstOffset: 100_000,
        transitionMs: 1500,
        unknownVersion: 'current',
        maximumRedeliveries: 1,
        redeliveryDelayMs: 200,
        backOffMultiplier: 3,
      },
      profile: KAURI_PROFILE,
      judged: PROFILE_JUDGED,
    },
  ],
});
