// An independent deployment ("ironbark", written from interface.md alone, in the style of an F# team on
// Saturn/Giraffe with Marten as event store and Hangfire-style background jobs, ported to node:http with all
// state in memory) judged by the kit in process: without a deployment profile (a short rate-limit window of
// 200 calls per 5 s), with its profile (PROFILE_JUDGED: delivery log, requeue, capability_denied, the burst),
// and with its other legal choices switched on (slower projections and lifecycle, short tokens, an unknown
// Service-Version served as the current one, fewer delivery retries), with the profile.
import { fileURLToPath } from 'node:url';
import { startIronbark } from './independent/ironbark/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const IRONBARK_PROFILE = fileURLToPath(new URL('./independent/ironbark/ironbark-profile.json', import.meta.url));

independentSuite({
  deployment: 'ironbark',
  start: startIronbark,
  runs: [
    { name: 'without a deployment profile', options: { rateLimit: 200, windowMs: 5000 } },
    { name: 'with its deployment profile', profile: IRONBARK_PROFILE, judged: PROFILE_JUDGED },
    {
      name: 'with its other legal choices (lagging projections, short tokens, version fallback)',
      options: {
        projectionLagMs: 800,
        transitionMs: 1200,
        tokenTtlSeconds: 60,
        unknownVersion: 'fallback',
        webhookAttempts: 2,
        webhookRetryMs: 300,
      },
      profile: IRONBARK_PROFILE,
      judged: PROFILE_JUDGED,
    },
  ],
});
