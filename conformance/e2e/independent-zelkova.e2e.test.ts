// An independent deployment ("zelkova", written from interface.md alone, Go/Fiber with a PostgREST-like
// data layer and GoTrue-like auth style) judged by the kit in process: without a deployment profile and
// with the profile declaring zelkova's own choices, then with two other legal choices switched on.
import { fileURLToPath } from 'node:url';
import { startZelkova } from './independent/zelkova/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/zelkova/zelkova-profile.json', import.meta.url));

/** A short sliding-log window, so the profile's bounded burst meets a 429 within a second. */
const FAST = { rateLimit: 200, windowMs: 5000, activationMs: 150 };

independentSuite({
  deployment: 'zelkova',
  start: startZelkova,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Per-tenant streams: a stream opened with x-service-tenant shows that tenant's messages, numbered by a
    // per-tenant counter (the shared Postgres sequence would leave gaps; "consecutive number" is kept); a
    // stream without a cursor starts at message 1 ("last number read": none); the outbox relay lags 400 ms;
    // messages are pretty JSON over several data: lines; GET /connections reads a replica 600 ms behind; the
    // delivery worker polls every 500 ms; a replayed registration leaves the signing key out ("issued exactly
    // once in the response").
    {
      name: 'with tenant streams, lagging relay, replica and worker, and the key left out of a replay',
      options: {
        ...FAST,
        tenantStreams: true,
        streamFromStart: true,
        relayDelayMs: 400,
        replicaLagMs: 600,
        workerPollMs: 500,
        sseStyle: 'pretty',
        redactKeyOnReplay: true,
      },
      profile: PROFILE,
    },
    // The authorization server on its own origin ({auth_url}, as GoTrue runs beside the API), messages without
    // an event: line (the kind is in the data), Stripe's idempotency rules (a refusal after validation is kept
    // and replayed; keys unique per access, the tenant counting as content), PostgREST's refusal of unknown query parameters, and 5 s tokens ("Tokens
    // are short-lived and are renewed, not extended"), and idempotency keys valid 2 s.
    {
      name: 'with a separate auth server, stored refusals, per-access keys, strict queries, 5 s tokens',
      options: {
        ...FAST,
        separateAuth: true,
        sseStyle: 'plain',
        storeRefusals: true,
        keyScope: 'client',
        strictQuery: true,
        tokenTtlSec: 5,
        // Issued keys valid 2 s (the validity period is not shown): a replay after their expiresAt is not judged.
        keyTtlMs: 2_000,
      },
      profile: PROFILE,
    },
  ],
});
