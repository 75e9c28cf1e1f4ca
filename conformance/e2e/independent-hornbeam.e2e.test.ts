// An independent deployment ("hornbeam", written from interface.md alone, edge/serverless style on node:http:
// ULIDs, a stream with heartbeats and a `retry:` hint that the edge closes after a short lifetime, a
// `Webhook-Signature` header, an RFC 9162 Merkle audit log, rate-limit headers on every answer) judged by the
// kit in process: without a deployment profile and with the profile declaring hornbeam's own choices.
import { fileURLToPath } from 'node:url';
import { startHornbeam } from './independent/hornbeam/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/hornbeam/hornbeam-profile.json', import.meta.url));

/** A 5 s window, so the profile's bounded burst meets a 429 within a second; streams live 4 s (resumes happen). */
const FAST = { rateLimit: 250, windowMs: 5000, streamLifetimeMs: 4000, heartbeatMs: 1000 };

independentSuite({
  deployment: 'hornbeam',
  start: startHornbeam,
  timeout: 120_000,
  runs: [
    // Undeclared, the kit finds the leaf formula (0x00, the entry without its proof parts) and recomputes it.
    { name: 'without a deployment profile', options: FAST, judged: ['audit.integrity', 'audit.entry-hash'] },
    // With the profile the kit also recomputes every Merkle leaf (auditEntryHash) besides the inclusion proofs.
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.integrity', 'audit.entry-hash'],
    },
    // Other legal choices at once: Service-Version mandatory ("Whether the header is mandatory ...: not shown"),
    // a stream read with a token and tenant numbering that tenant's own feed, and a tighter limit per client
    // address on public routes (limits are "configured per access, per tenant and per environment": values not shown).
    {
      name: 'with Service-Version mandatory, tenant streams and 60 public calls per 2 s',
      options: { ...FAST, serviceVersionRequired: true, tenantStreams: true, publicRateLimit: 60 },
      profile: PROFILE,
    },
  ],
});
