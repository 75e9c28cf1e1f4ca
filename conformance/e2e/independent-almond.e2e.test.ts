// An independent deployment ("almond", written from interface.md alone, in the style of an Eclipse Vert.x team:
// Router with BodyHandler and failure handler, event bus feeding the SSE stream with IAtomicLong-like counters,
// HS256 JWTs from a Keycloak-like realm, rate limiting per (client, tenant) in a shared local map, WebClient
// deliveries with a circuit breaker and exponential retries, an audit hash chain with Ed25519-signed checkpoints;
// ported to node:http with all state in memory) judged by the kit in process: without a deployment profile,
// with its profile (PROFILE_JUDGED), and with its other legal choices switched on (a lagging connection list,
// short tokens, an unknown Service-Version served as the current one, a smaller rate-limit window, faster
// lifecycle, fewer delivery retries, a checkpoint every 3 entries), with the profile.
import { fileURLToPath } from 'node:url';
import { startAlmond } from './independent/almond/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const ALMOND_PROFILE = fileURLToPath(new URL('./independent/almond/almond-profile.json', import.meta.url));

independentSuite({
  deployment: 'almond',
  start: startAlmond,
  runs: [
    { name: 'without a deployment profile' },
    { name: 'with its deployment profile', profile: ALMOND_PROFILE, judged: PROFILE_JUDGED },
    {
      name: 'with its other legal choices (lagging list, short tokens, version fallback, small window)',
      options: {
        listLagMs: 400,
        tokenTtlSeconds: 60,
        unknownVersion: 'current',
        rateLimit: 600,
        windowMs: 15_000,
        transitionMs: 200,
        webhookAttempts: 2,
        webhookRetryMs: 200,
        auditCheckpointEvery: 3,
      },
      profile: ALMOND_PROFILE,
      judged: PROFILE_JUDGED,
    },
  ],
});
