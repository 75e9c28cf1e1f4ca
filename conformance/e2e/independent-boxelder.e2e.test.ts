// An independent deployment ("boxelder", written from interface.md alone, as a Zig team on std.http.Server
// would build it) judged by the kit in process: without a profile, with its profile, and with other legal
// choices of its own (a global newest-first audit chain, 3 s tokens, a mandatory Service-Version, an outbox).
import { fileURLToPath } from 'node:url';
import { startBoxelder } from './independent/boxelder/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/boxelder/boxelder-profile.json', import.meta.url));

/** A 5 s fixed window of 200 calls (40 a second): a loaded CI worker still meets the 429 within the burst (at 250 a clean-clone run once made its 400-call burst slower than that). */
const FAST = { rateLimit: 200, windowMs: 5000 };

independentSuite({
  deployment: 'boxelder',
  start: startBoxelder,
  timeout: 120_000,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.entry-hash', 'audit.chain-links'],
    },
    // Other legal choices of the same team (each "not shown" or left open by interface.md): one audit chain
    // over all tenants read newest first, pages of at most 20 and a larger `limit` refused; 3 s tokens; a
    // token endpoint reading client_secret_post only; Service-Version mandatory; an unknown connector decided
    // "not allowed"; streams ended after 800 ms (clients resume by Last-Event-ID); a public stream of
    // keepalives only; deliveries through a 1.5 s outbox, a delivery log of one entry a page; a replayed
    // registration without the signing key; idempotency keys per client (another tenant's reuse of a key is a
    // conflict: the tenant is part of the content); and a decoder ignoring unknown fields.
    {
      name: 'with a global newest-first audit chain, 3 s tokens, a mandatory Service-Version and a delivery outbox',
      options: {
        ...FAST,
        auditGlobalChain: true,
        auditNewestFirst: true,
        auditMaxPage: 20,
        auditLimitStrict: true,
        tokenTtlSec: 3,
        tokenAuth: 'post' as const,
        versionRequired: true,
        unknownConnector: 'decision' as const,
        streamMaxMs: 800,
        publicStreamQuiet: true,
        deliveryDelayMs: 1500,
        deliveryPage: 1,
        replayOmitsKey: true,
        idemScope: 'client' as const,
        rejectUnknownFields: false,
      },
      profile: PROFILE,
      judged: [
        'audit.entry-hash',
        'audit.order',
        'webhooks.delivery-log',
        'webhooks.redelivery',
        'rate-limit.retry-after',
      ],
    },
  ],
});
