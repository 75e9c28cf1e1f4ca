// An independent deployment ("tamarind", written from interface.md alone, Python Flask + Connexion team
// style with a Keycloak realm and Celery deliveries) judged by the kit in process: without a deployment
// profile, with the profile declaring tamarind's own choices, and with other legal choices of its own.
// Expected: no failed MUST or SHOULD, exit code 0, and what the profile enables judged.
import { fileURLToPath } from 'node:url';
import { startTamarind } from './independent/tamarind/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/tamarind/tamarind-profile.json', import.meta.url));

/** A short Flask-Limiter window, so the profile's bounded burst meets a 429 within a second or two. */
const FAST = { rateLimit: 300, windowMs: 5000 };

independentSuite({
  deployment: 'tamarind',
  start: startTamarind,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.entry-hash'],
    },
    // Other legal choices of the same stack, each left open by interface.md: 30 s Keycloak tokens; Service-Version
    // required (Connexion's required header) and strict_validation of query parameters; audit pages oldest
    // first, 5 by default and at most 20 (a larger limit refused by the schema's maximum), the first link the
    // SHA-256 of the tenant's name; data-only SSE messages replaying the retained history to a fresh reader;
    // a busy Celery worker and outbox relay (0.5 s); redelivery re-queueing the same row; an absolute `servers`
    // URL; the sandbox refusing production connections.
    {
      name: 'with other legal choices of its stack',
      options: {
        ...FAST,
        tokenLifetimeSeconds: 30,
        serviceVersionRequired: true,
        strictValidation: true,
        auditOldestFirst: true,
        auditDefaultLimit: 5,
        auditMaxLimit: 20,
        auditLimitStrict: true,
        auditGenesis: 'seeded' as const,
        sseEventField: false,
        streamFromStart: true,
        deliveryDelayMs: 500,
        streamRelayMs: 500,
        activationDelayMs: 800,
        requeueSameRow: true,
        absoluteServers: true,
        sandboxRefusesProduction: true,
      },
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.entry-hash', 'audit.chain-links'],
    },
  ],
});
