// An independent deployment ("basswood", written from interface.md alone, Ruby Sinatra + Sequel team style)
// judged by the kit in process: without a deployment profile, with the profile declaring basswood's own
// choices, and with other legal choices of its own. Expected: no failed MUST or SHOULD, exit code 0.
import { fileURLToPath } from 'node:url';
import { startBasswood } from './independent/basswood/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const dir = new URL('./independent/basswood/', import.meta.url);
const PROFILE = fileURLToPath(new URL('basswood-profile.json', dir));
/** The same profile, declaring the joined-columns digest formula of the third run. */
const JOINED_PROFILE = fileURLToPath(new URL('basswood-joined-profile.json', dir));

/** A short rack-attack period (250 calls per 5 s), so the profile's bounded burst (1200 in 20 s) meets a 429. */
const FAST = { rateLimit: 250, windowMs: 5000 };

/**
 * Other legal choices, all at once (the interface shows none of them): the audit log oldest first in pages of
 * 20 told by will_paginate's fields in `data`, digests over `|`-joined columns, an Ed25519-signed chain head,
 * a +01:00 host offset in every timestamp, 30 s tokens from a client_secret_post-only token endpoint,
 * Service-Version mandatory, a stream cut after 1.5 s that starts at the live tail, 1.5 s of Sidekiq latency,
 * connections activating on their own after 300 ms, a separate, lower throttle for writes, unknown body fields
 * refused (dry-validation's validate_keys), SSE frames without `event:` lines, and a retry re-running the
 * logged attempt itself (same attempt id).
 */
const OTHER = {
  ...FAST,
  auditOldestFirst: true,
  auditMaxPerPage: 20,
  auditPaging: 'body' as const,
  auditDigest: 'joined' as const,
  auditProof: 'signed' as const,
  utcOffsetMin: 60,
  tokenTtlSec: 30,
  tokenAuth: 'post' as const,
  versionRequired: true,
  streamMaxMs: 1500,
  streamFromNow: true,
  deliveryDelayMs: 1500,
  activateAfterMs: 300,
  writeLimit: 100,
  strictKeys: true,
  streamPlainFrames: true,
  retryInPlace: true,
};

independentSuite({
  deployment: 'basswood',
  start: startBasswood,
  timeout: 120_000,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.entry-hash', 'audit.chain-links'],
    },
    {
      name: 'with other legal choices (oldest-first body-paged audit, joined digests, signed head, +01:00, mandatory version)',
      options: OTHER,
      profile: JOINED_PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.entry-hash', 'audit.signature', 'audit.chain-links'],
    },
  ],
});
