// An independent deployment ("olive", written from interface.md alone, the way a Go team with net/http's
// ServeMux, sqlc over SQLite, opaque introspected tokens, a job queue for webhook deliveries and an
// Ed25519-signed audit hash chain would build it) judged by the kit in process: without a deployment
// profile, with the profile declaring olive's choices, with its other legal choices together, and with
// connection ids counted per tenant.
import { fileURLToPath } from 'node:url';
import { startOlive } from './independent/olive/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/olive/olive-profile.json', import.meta.url));

/** A token bucket of 300 refilled in 5 s, so the profile's bounded burst meets a 429 at once; fast retries. */
const FAST = { rateLimit: 300, windowMs: 5000, retryBaseMs: 200 };

independentSuite({
  deployment: 'olive',
  start: startOlive,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Other legal choices of a Go team, together: DisallowUnknownFields, audit pages newest first over one
    // service-wide chain, Service-Version mandatory, times in the host's zone (+05:30, no .UTC()), keys
    // scoped per access across tenants, SSE without the optional space and without event:, encoding/json's
    // HTML escaping, Go zero values (detail/hint "", replayed false), streams cut by a 1.5 s WriteTimeout,
    // a redelivery re-running the logged delivery, connections newest first, a missing tenant 401, an
    // unknown tenant 404, errors as application/problem+json, 3-second tokens, stream numbers from
    // 1 000 001, the registration nested as {webhook, signingKey}, and lists reading createdAt back in
    // milliseconds (the creation answer has nanoseconds).
    {
      name: 'with its other legal choices together',
      options: {
        ...FAST,
        strictFields: true,
        auditNewestFirst: true,
        globalChain: true,
        versionRequired: true,
        utcOffsetMinutes: 330,
        keyScopeClient: true,
        sseCompact: true,
        sseNoEventField: true,
        goHtmlEscape: true,
        goZeroValues: true,
        streamMaxMs: 1500,
        heartbeatMs: 200,
        redeliverSameId: true,
        connectionsNewestFirst: true,
        missingTenant401: true,
        unknownTenant404: true,
        problemJson: true,
        tokenLifetimeS: 3,
        streamSeqStart: 1_000_001,
        nestedWebhook: true,
        sqliteMillis: true,
      },
      profile: PROFILE,
    },
    // Connection, receiver and delivery ids counted per tenant (a composite key (tenant, id)): two tenants
    // each have a connection "1". The interface shows no id format ("Format of identifiers … not shown").
    // When written the kit failed generated.request-echo (MUST), taking olive-meadow's own connection "1" for the
    // connection "1" it created for olive-harbor; later audit.order placed the kit's changes by any number equal
    // to their ids (`"seq":5`): ids of digits alone now name an entry only as a string's end or an id's value.
    { name: 'with ids counted per tenant', options: { ...FAST, perTenantIds: true }, profile: PROFILE },
  ],
});
