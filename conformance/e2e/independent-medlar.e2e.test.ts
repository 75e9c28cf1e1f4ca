// An independent deployment ("medlar", written from interface.md alone, in the style of a Next.js App Router
// team on Vercel: route handlers per path, Upstash sliding-window rate limiting, m2m tokens, QStash-style
// webhooks, edge streaming, ported to node:http with all state in memory) judged by the kit in process: without
// a deployment profile (a short sliding window of 300 calls per 5 s), with its profile (PROFILE_JUDGED: message
// log, replay, capability_denied, the burst), and with its other legal choices switched on (a live-only stream
// start, short tokens, an unknown Service-Version served as the current one, slower lifecycle, fewer retries,
// small audit pages), with the profile.
import { fileURLToPath } from 'node:url';
import { startMedlar } from './independent/medlar/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const MEDLAR_PROFILE = fileURLToPath(new URL('./independent/medlar/medlar-profile.json', import.meta.url));

independentSuite({
  deployment: 'medlar',
  start: startMedlar,
  runs: [
    { name: 'without a deployment profile', options: { rateLimit: 300, windowMs: 5000 } },
    { name: 'with its deployment profile', profile: MEDLAR_PROFILE, judged: PROFILE_JUDGED },
    {
      name: 'with its other legal choices (live stream start, short tokens, version fallback)',
      options: {
        streamStart: 'live',
        tokenTtlSeconds: 60,
        unknownVersion: 'current',
        transitionMs: 900,
        keepAliveMs: 500,
        webhookRetries: 1,
        webhookBackoffMs: 300,
        auditPageSize: 10,
      },
      profile: MEDLAR_PROFILE,
      judged: PROFILE_JUDGED,
    },
  ],
});
