// An independent deployment ("atlas", written from interface.md alone) judged by the kit, in process:
// without a deployment profile and with the profile declaring atlas's own choices (its legal choices earn
// no warning either: its request id travels in X-Correlation-ID, for one), then three timing variants.
import { fileURLToPath } from 'node:url';
import { startAtlas } from './independent/atlas/index.ts';
import { independentSuite } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/atlas/atlas-profile.json', import.meta.url));

independentSuite({
  deployment: 'atlas',
  start: startAtlas,
  runs: [
    { name: 'without a deployment profile' },
    { name: 'with a deployment profile declaring its choices', profile: PROFILE },
    // Its connections activate within 100 ms, so they move on (state, nextStep, stateChangedAt, revision) while
    // the kit's refused calls are made: what moves with a state whose transitions are not shown is no change a
    // refused call made.
    {
      name: 'whose connections activate while the refused calls are made',
      options: { activationDelayMs: 100 },
      profile: PROFILE,
      allow: 'should',
    },
    // "Tokens are short-lived and are renewed, not extended"; their lifetime is not shown. A profile run takes
    // about 3-5 s (20 s while the 429 burst waited out the window), longer than these 3-second tokens: the kit
    // must renew its token (client credentials) instead of failing checks with the 401s of an expired one
    // (1-second tokens ran out in flight in CI, where five runs share a worker and eight workers two cores).
    {
      name: 'with tokens shorter than a kit run',
      options: { tokenLifetimeSeconds: 3 },
      profile: PROFILE,
      allow: 'should',
    },
    // Events go through a transactional outbox polled every 4 s (a common Java design; the interface states no
    // latency, only that the stream delivers state changes continuously and resumes without gaps).
    {
      name: 'whose events reach the stream through a 4-second outbox relay',
      options: { eventRelayMs: 4000 },
      profile: PROFILE,
      allow: 'should',
    },
  ],
});
