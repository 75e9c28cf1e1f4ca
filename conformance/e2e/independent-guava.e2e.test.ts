// An independent deployment ("guava", written from interface.md alone, Perl/Mojolicious team style) judged
// by the kit in process: without a deployment profile, with the profile declaring guava's own choices,
// and with other legal choices of its own (oldest-first audit pages, a digest over the entry's Mojo::JSON
// text with its escaped slashes, a signed chain head, form-only client authentication, delayed deliveries).
// Expected: no failed MUST or SHOULD, exit code 0, and the profile's checks and the audit proof judged.
import { fileURLToPath } from 'node:url';
import { startGuava } from './independent/guava/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/guava/guava-profile.json', import.meta.url));
const JSON_PROFILE = fileURLToPath(new URL('./independent/guava/guava-profile-json.json', import.meta.url));

/**
 * A short rate-limit window, so the profile's bounded burst meets a 429 within seconds: 300 calls in 5 s (a burst
 * made 10 at a time on a loaded CI worker did not reach 300 within a 2 s window); the run's own calls may meet a 429
 * too, which the kit waits out.
 */
const FAST = { rateLimit: 300, windowMs: 5000, backoffSecondMs: 20 };

independentSuite({
  deployment: 'guava',
  start: startGuava,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.chain-links', 'audit.entry-hash'],
    },
    // Other legal choices (the audit log's order, paging and proof format, token lifetimes, the token
    // endpoint's client authentication and the delivery latency are not shown): oldest first in pages of at
    // most 10 with an `after` keyset cursor, each digest over the entry's Mojo::JSON text (served key
    // order, '/' escaped as '\/'), the chain head signed with Ed25519, two-minute tokens issued only to
    // form-field credentials (OAuth2::Server reads params), deliveries after a Minion worker's poll, and
    // Service-Version required (the interface leaves open whether it is mandatory).
    {
      name: 'with oldest-first pages of 10, Mojo::JSON digests, a signed head, form-only client auth',
      options: {
        ...FAST,
        auditOldestFirst: true,
        auditMaxPerPage: 10,
        auditDigest: 'mojo-json' as const,
        auditSigned: true,
        tokenSeconds: 120,
        tokenAuth: 'post' as const,
        jobDelayMs: 1500,
        versionRequired: true,
      },
      profile: JSON_PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.chain-links', 'audit.entry-hash', 'audit.order', 'audit.signature'],
    },
  ],
});
