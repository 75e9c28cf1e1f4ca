// An independent deployment ("tulip", written from interface.md alone, in the style of a Scala team on http4s,
// fs2, circe and doobie) judged by the kit in process: without a deployment profile, with the profile declaring
// tulip's own choices (its hash chain and Ed25519-signed chain head too), and with other legal choices of its
// own, undeclared (see the third run). Expected: no failed MUST or SHOULD, exit 0.
// A repeated query parameter is answered with its first value (http4s' OptionalQueryParamDecoderMatcher) while
// openapi.json documents each filter as a string: legal (the interface asks no refusal of it), and a form the
// document need not describe (openapi.parameters-admit-served leaves a single-valued parameter sent twice alone).
import { fileURLToPath } from 'node:url';
import { startTulip } from './independent/tulip/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/tulip/tulip-profile.json', import.meta.url));

/** 250 calls per 5 s sliding window (50 a second): the profile's burst of 1200 in 20 s meets a 429 surely. */
const FAST = { rateLimit: 250, windowMs: 5000 };

independentSuite({
  deployment: 'tulip',
  start: startTulip,
  timeout: 120_000,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.entry-hash', 'audit.signature'],
    },
    // Other legal choices, found by the kit without a profile: tokens of 20 s (renewed, not extended), a
    // mandatory Service-Version, audit pages of 5 under `items` with an opaque cursor, the proof a compact EdDSA
    // JWS, java.time.Instant micros, circe-derived states (`Pending`, `Active`), unnamed stream messages,
    // CloudEvents webhook bodies, the signing key nested at `data.secret.value`, and tapir's refusal of a
    // repeated query parameter (the other legal answer to it); an unknown Service-Version is
    // served as the current one; connections listed newest first; status changes relayed from an outbox after 1 s.
    {
      name: 'with other legal choices, undeclared',
      options: {
        ...FAST,
        tokenTtlSec: 20,
        requireServiceVersion: true,
        auditDefaultLimit: 5,
        auditMaxLimit: 5,
        auditCursorPages: true,
        auditProof: 'jws' as const,
        javaInstants: true,
        pascalStates: true,
        unnamedStreamEvents: true,
        cloudEvents: true,
        nestedWebhookAnswer: true,
        singleValuedQuery: true,
        unknownVersion: 'current' as const,
        newestConnectionsFirst: true,
        outboxDelayMs: 1000,
      },
      judged: ['audit.entry-hash', 'audit.signature', 'audit.chain-links', 'webhooks.signature'],
    },
  ],
});
