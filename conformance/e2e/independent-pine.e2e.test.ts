// An independent deployment ("pine", written from interface.md alone, Elixir Phoenix on Fly.io style) judged
// by the kit in process: without a deployment profile and with the profile declaring pine's own choices,
// then with two other legal choices of pine's switched on.
import { fileURLToPath } from 'node:url';
import { startPine } from './independent/pine/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/pine/pine-profile.json', import.meta.url));

/** A short fixed window (pine's is 10 s), so the profile's bounded burst meets a 429 within a second or two. */
const FAST = { rateLimit: 300, windowMs: 5000 };

independentSuite({
  deployment: 'pine',
  start: startPine,
  timeout: 120_000,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Other legal choices: Service-Version optional, the signing key left out of a replayed registration
    // ("issued exactly once"), the audit proof also naming its canonical form RFC 8785 (the kit then looks for
    // its own proof fields, finds none, and skips audit.integrity as another format), and deliveries through a
    // job queue 1.5 s late, a replay being a new delivery of its own (the interface shows neither).
    {
      name: 'with Service-Version optional, a redacted replay, a JCS-named proof and queued deliveries',
      options: {
        ...FAST,
        serviceVersionOptional: true,
        redactKeyOnReplay: true,
        auditJcs: true,
        deliveryDelayMs: 1500,
        replayAsNewDelivery: true,
      },
      profile: PROFILE,
      judged: PROFILE_JUDGED,
    },
    // A tight fixed window (its values are not shown): the kit meets 429s on its own calls and waits them out.
    { name: 'with 60 calls per 2 s', options: { rateLimit: 60, windowMs: 2000 }, profile: PROFILE, allow: 'should' },
  ],
});
