// An independent deployment ("totara", written from interface.md alone, in the style of a Node team on Fastify with
// TypeBox, Prisma, @fastify/jwt, @fastify/rate-limit, BullMQ and Redis Streams, ported to node:http with all state in
// memory) judged by the kit in process: without a deployment profile (a smaller per-route limit of 300 calls a
// minute), with its profile (PROFILE_JUDGED: job log, job retry, capability_denied, the burst), and with its other
// legal choices switched on (one rate-limit bucket per client and tenant, short tokens, an unknown Service-Version
// served as the current one, streams replayed from their start, audit oldest first, slower activation, fewer
// delivery attempts), with the profile.
import { fileURLToPath } from 'node:url';
import { startTotara } from './independent/totara/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const TOTARA_PROFILE = fileURLToPath(new URL('./independent/totara/totara-profile.json', import.meta.url));

independentSuite({
  deployment: 'totara',
  start: startTotara,
  runs: [
    { name: 'without a deployment profile', options: { rateLimitMax: 300 } },
    { name: 'with its deployment profile', profile: TOTARA_PROFILE, judged: PROFILE_JUDGED },
    {
      name: 'with its other legal choices (one bucket per client, short tokens, version fallback, replayed streams)',
      options: {
        rateLimitScope: 'client',
        rateLimitMax: 1500,
        tokenTtlSeconds: 60,
        unknownVersion: 'fallback',
        streamFrom: 'start',
        auditOrder: 'asc',
        transitionMs: 1500,
        webhookAttempts: 2,
        webhookBackoffMs: 300,
        idempotencyTtlHours: 1,
      },
      profile: TOTARA_PROFILE,
      judged: PROFILE_JUDGED,
    },
  ],
});
