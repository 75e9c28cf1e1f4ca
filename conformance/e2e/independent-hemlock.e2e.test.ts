// An independent deployment ("hemlock", written from interface.md alone, Elixir/Phoenix-minded style)
// judged by the kit in process: without a deployment profile, with the profile declaring hemlock's own
// choices, and with its other legal choices switched on together.
import { fileURLToPath } from 'node:url';
import { startHemlock } from './independent/hemlock/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/hemlock/hemlock-profile.json', import.meta.url));

/** A leaky bucket of 200 calls that drains in 5 s, so the profile's bounded burst meets a 429 within a second. */
const FAST = { rateLimit: 200, windowMs: 5000 };

independentSuite({
  deployment: 'hemlock',
  start: startHemlock,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Other legal choices at once, each where the interface says "not shown" or leaves room: Service-Version
    // mandatory; connections moving on from live to suspended after 1 s (states and transitions); 3 s tokens
    // ("short-lived and renewed"); webhook jobs queued 1 s before sending (retry policy and timing); the signing
    // key left out of a replayed registration ("issued exactly once"); a 404/409 reached after validation kept
    // under its Idempotency-Key and replayed ("the same key with the same content returns the same response");
    // a stream opened without cursor or Last-Event-ID starting with the whole retained backlog (not shown).
    {
      name: 'with its other legal choices switched on',
      options: {
        ...FAST,
        serviceVersionRequired: true,
        suspendAfterMs: 1000,
        tokenTtlS: 3,
        deliveryDelayMs: 1000,
        redactKeyOnReplay: true,
        replayRefusals: true,
        streamFromStart: true,
      },
      profile: PROFILE,
      judged: PROFILE_JUDGED,
    },
  ],
});
