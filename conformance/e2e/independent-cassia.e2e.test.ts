// An independent deployment ("cassia", written from interface.md alone, Clojure/Pedestal team style) judged
// by the kit in process: without a deployment profile, with the profile declaring cassia's own choices, and
// with other legal choices of its own (short tokens, pages of 5, a zero-digest genesis, Service-Version required).
import { fileURLToPath } from 'node:url';
import { startCassia } from './independent/cassia/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/cassia/cassia-profile.json', import.meta.url));

/** A token bucket a loaded CI worker cannot slip past: 250 calls, refilled at 50 a second. */
const FAST = { burst: 250, refillPerSecond: 50 };

independentSuite({
  deployment: 'cassia',
  start: startCassia,
  timeout: 120_000,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.chain-links', 'audit.entry-hash', 'audit.signature'],
    },
    // Other legal choices (token lifetimes and endpoint auth methods, page sizes, the proof's genesis, whether
    // Service-Version is mandatory, heartbeats, where a stream without a cursor starts, and what a replay of a
    // webhook creation shows are all not shown): 60 s tokens by client_secret_post only, audit pages of 5
    // whatever `limit` asks, 64 zeros before the first link, a heartbeat comment every 250 ms, a cursorless
    // stream from message 1, and the signing key left out of a replay ("issued exactly once").
    {
      name: 'with post-only 60 s tokens, pages of 5, a zero genesis, Service-Version required, a stream from 1',
      options: {
        ...FAST,
        tokenTtl: 60,
        pageLimit: 5,
        auditGenesis: 'zeros' as const,
        requireServiceVersion: true,
        heartbeatMs: 250,
        tokenAuth: 'post' as const,
        streamFromStart: true,
        replayRedactsKey: true,
      },
      profile: PROFILE,
      judged: ['audit.chain-links', 'audit.entry-hash', 'audit.signature', 'rate-limit.retry-after'],
    },
  ],
});
