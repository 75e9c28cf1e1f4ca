// An independent deployment ("holly", written from interface.md alone, gRPC-first behind a grpc-gateway-like
// transcoder) judged by the kit in process: without a deployment profile and with the profile declaring
// holly's own choices (delivery log, :retry, capability_denied case, a bounded burst against its token bucket).
import { fileURLToPath } from 'node:url';
import { startHolly } from './independent/holly/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/holly/holly-profile.json', import.meta.url));

/** A token bucket of 300 refilled in 5 s, so the profile's burst (at most 1200 calls) meets a 429 in about a second. */
const FAST = { rateLimit: 300, windowMs: 5000 };

independentSuite({
  deployment: 'holly',
  start: startHolly,
  runs: [
    // Undeclared, the kit finds the leaf formula and verifies the proofs.
    { name: 'without a deployment profile', options: FAST, judged: ['audit.integrity', 'audit.entry-hash'] },
    // holly's audit log is an RFC 9162 Merkle tree in proto3 JSON: leafIndex and treeSize are int64, so strings
    // ("154"). The proofs verify by RFC 9162 section 2.1.3.2; when written the kit skipped audit.integrity (it read
    // only JSON numbers for the index and size); whole numbers written as strings are read now.
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.integrity'],
    },
    // Other legal choices: Service-Version mandatory ("whether the header is mandatory: not shown"), and the
    // proof's int64 fields as JSON numbers, the one change that lets the kit verify the same proofs.
    {
      name: 'with Service-Version required and int64 proof fields as numbers',
      options: { ...FAST, serviceVersionRequired: true, auditInt64Numbers: true },
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.integrity'],
    },
  ],
});
