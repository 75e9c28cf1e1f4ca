// An independent deployment ("redbud", written from interface.md alone, Rust Rocket + Diesel team style)
// judged by the kit in process: without a deployment profile, with the profile declaring redbud's own
// choices, and with other legal choices of its own (base64 chain digests, a Link-header paged audit log
// of at most 20 entries with a signed head, form-only 60 s tokens). Expected: no failed MUST or SHOULD, exit code 0.
import { fileURLToPath } from 'node:url';
import { startRedbud } from './independent/redbud/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/redbud/redbud-profile.json', import.meta.url));
/** The same choices, with the chain's digests declared base64 (the team's other configuration). */
const BASE64_PROFILE = fileURLToPath(new URL('./independent/redbud/redbud-base64-profile.json', import.meta.url));

/** A GCRA burst of 250 replenished over 5 s (50 calls a second): the profile's burst of 1200 meets a 429 soon. */
const FAST = { rateLimit: 250, windowMs: 5000 };

independentSuite({
  deployment: 'redbud',
  start: startRedbud,
  timeout: 120_000,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.chain-links'],
    },
    // Other legal choices (the proof format, the log's paging, token lifetimes and the token endpoint's client
    // authentication are not shown): base64 digests with an Ed25519-signed head (the raw key beside it), Link
    // pages of at most 20, 60 s tokens from a form-only endpoint (a Basic header is refused with invalid_client),
    // and a replayed registration without its signing key (shown exactly once, even to a retry).
    {
      name: 'with a signed base64 chain, Link-header audit pages of 20, form-only 60 s tokens, a key shown once',
      options: {
        ...FAST,
        auditEncoding: 'base64' as const,
        auditPaging: 'link' as const,
        auditMaxLimit: 20,
        auditSigned: true,
        tokenTtlSec: 60,
        tokenAuth: 'post' as const,
        redactReplayedKey: true,
      },
      profile: BASE64_PROFILE,
      judged: ['audit.entry-hash', 'audit.chain-links', 'audit.signature', 'webhooks.redelivery'],
    },
  ],
});
