// An independent deployment ("bayberry", written from interface.md alone, as a Gleam team on the BEAM would:
// wisp + mist, UUIDv7 ids, snake_case extra fields, birl's +00:00 timestamps, a SHA-256 hash-chain audit log
// with an Ed25519-signed head) judged by the kit in process: without a deployment profile, with the profile
// declaring bayberry's own choices, and with other legal choices of its own.
import { fileURLToPath } from 'node:url';
import { startBayberry } from './independent/bayberry/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/bayberry/bayberry-profile.json', import.meta.url));

/** A 5 s window of 300 calls, so the profile's bounded burst (900 calls) meets a 429 within a window. */
const FAST = { rateLimit: 300, windowMs: 5000 };

/**
 * Other legal choices together (each one not shown by the interface): oldest-first audit pages of at most 5,
 * 3-second tokens, client_secret_post only, an unknown connector decided "not allowed" instead of a 404, a
 * stream replaying the whole log when opened without a cursor, a delivery log paged 3 at a time, Service-Version
 * required, idempotency keys scoped per tenant across operations, a numbered public heartbeat, the delivery
 * log refused (404) to a caller asking for 2026-06-12, and opening the audit log audited (an `audit.read` entry
 * appended after the first page's answer).
 * Expected to fail (a kit verdict reported, not fixed here): audit.chain-links (SHOULD) "the head the answer
 * states (data.proof.head_hash) is the hash of its newest entry (seq 110)". The kit compares the head stated by
 * the first page of an oldest-first walk with the newest entry it read pages later; the log grew in between
 * (here by the `audit.read` entry, in a live deployment by any concurrent change: `activateAfterMs: 150` makes
 * it fail about one run in two), and the head was the head when that answer was written.
 */
const OTHER = {
  ...FAST,
  auditOldestFirst: true,
  auditMaxLimit: 5,
  tokenLifetimeS: 3,
  tokenAuth: 'post' as const,
  unknownConnectorDecision: true,
  streamReplayAll: true,
  deliveryPageSize: 3,
  versionRequired: true,
  keyPerTenant: true,
  publicHeartbeatMs: 400,
  deliveryLogSinceCurrent: true,
  auditOpenings: true,
};

independentSuite({
  deployment: 'bayberry',
  start: startBayberry,
  timeout: 120_000,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.entry-hash', 'audit.signature', 'audit.chain-links', 'webhooks.signature'],
    },
    {
      name: 'with oldest-first audit pages of 5, 3 s tokens and other legal choices',
      options: OTHER,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.entry-hash', 'audit.signature', 'audit.order'],
    },
  ],
});
