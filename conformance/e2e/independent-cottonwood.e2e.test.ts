// An independent deployment ("cottonwood", written from interface.md alone, Bun + Elysia team style ported
// to node:http) judged by the kit in process: without a deployment profile, with the profile declaring
// cottonwood's own choices, and with other legal choices of its own (see the third run). Expected: no failed MUST or SHOULD, exit code 0, and the profile's checks judged.
import { fileURLToPath } from 'node:url';
import { startCottonwood } from './independent/cottonwood/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/cottonwood/cottonwood-profile.json', import.meta.url));
const PIPE_PROFILE = fileURLToPath(new URL('./independent/cottonwood/cottonwood-pipe-profile.json', import.meta.url));

/** A short elysia-rate-limit window, so the profile's bounded burst meets a 429 within a second or two. */
const FAST = { rateLimit: 300, windowMs: 5000 };

independentSuite({
  deployment: 'cottonwood',
  start: startCottonwood,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.entry-hash', 'audit.signature'],
    },
    // Other legal choices of the same team, all where the interface says "not shown" or leaves it open: the
    // entry hash over `prevHash|seq|at|action|resource.id` in hex after 64 zeros, the log oldest first paged
    // by a Link header only, 2 s tokens through client_secret_post only, Service-Version mandatory, deliveries
    // queued 800 ms, stream messages relayed from an outbox after 400 ms without `event:` lines and each stream
    // ended after 1.5 s, a delivery log of one per page, refused calls audited, connections activated later,
    // public routes left out of the rate-limit count (no headers there), the whole proof object signed.
    {
      name: 'with other legal choices (pipe hash, Link paging, outbox, mandatory version, 2 s tokens)',
      options: {
        ...FAST,
        auditHex: true,
        auditHashPipe: true,
        auditOldestFirst: true,
        auditPaging: 'link' as const,
        tokenTtlSeconds: 2,
        tokenAuth: 'post' as const,
        requireServiceVersion: true,
        deliveryDelayMs: 800,
        streamRelayMs: 400,
        streamMaxMs: 1500,
        streamUnnamed: true,
        deliveryPageSize: 1,
        auditRefusals: true,
        activateAfterMs: 300,
        publicUncounted: true,
        auditSignProof: true,
      },
      profile: PIPE_PROFILE,
      judged: [
        ...PROFILE_JUDGED,
        'audit.entry-hash',
        'audit.chain-links',
        'audit.order',
        'audit.records-change',
        'audit.signature',
      ],
    },
  ],
});
