// An independent deployment ("rosewood", written from interface.md alone, Swift Vapor 4 + Fluent team style)
// judged by the kit in process: without a deployment profile, with the profile declaring rosewood's own
// choices, and with other legal choices of its own (a signed hash chain instead of a Merkle root, 5 s tokens,
// audit pages of 10). Expected: no failed MUST or SHOULD, exit code 0.
// Rosewood showed the kit two choices it did not take: Codable's `decodeIfPresent` reads `"environment": null` as
// absent and answers the default sandbox (the interface never says an explicit null is refused: the kit's null
// probe of an optional field now accepts either), and its digests hash JSONEncoder's `.sortedKeys` output with
// `\/`-escaped slashes (`{@canonical:slashes}`, now a template the profile offers and the kit tries).
import { fileURLToPath } from 'node:url';
import { startRosewood } from './independent/rosewood/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/rosewood/rosewood-profile.json', import.meta.url));

/** A short sliding window, so the profile's bounded burst meets a 429 within a second or two. */
const FAST = { rateLimit: 300, windowMs: 5000 };

independentSuite({
  deployment: 'rosewood',
  start: startRosewood,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.signature', 'audit.records-change', 'audit.entry-hash'],
    },
    // The proof's format, token lifetimes and page sizes are not shown: a CryptoKit-signed SHA-256 chain
    // head, tokens that run out within the run (the kit renews them) and Fluent pages of 10.
    {
      name: 'with a signed hash chain, 5 s tokens and audit pages of 10',
      options: { ...FAST, auditProof: 'chain' as const, tokenTtlSeconds: 5, auditPerPage: 10 },
      judged: ['audit.entry-hash', 'audit.chain-links'],
    },
  ],
});
