// An independent deployment ("fern", written from interface.md alone, FastAPI + Pydantic style behind an
// nginx front, on node:http) judged by the kit in process: without a deployment profile and with the
// profile declaring fern's choices. Expected: no failed MUST, no failed SHOULD, exit code 0. Each run
// gets a fresh fern, so one run's calls do not spend the next run's rate-limit window.
import { fileURLToPath } from 'node:url';
import { startFern } from './independent/fern/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/fern/fern-profile.json', import.meta.url));

independentSuite({
  deployment: 'fern',
  start: startFern,
  timeout: 180_000,
  runs: [
    { name: 'without a deployment profile' },
    { name: 'with its deployment profile', profile: PROFILE, judged: PROFILE_JUDGED },
    // The other legal choice: Service-Version optional ("Whether the header is mandatory ... not shown").
    { name: 'with Service-Version optional', profile: PROFILE, options: { versionOptional: true }, allow: 'should' },
    // fern's other legal choices at once: Service-Version required on the public endpoints too, 3 s tokens,
    // 150 calls per 10 s, a newest-first audit log paged by a Link header, a resend keeping its delivery id,
    // unknown query parameters refused, indented stream payloads over several data lines, slow activation.
    {
      name: 'with its other legal choices',
      profile: PROFILE,
      options: {
        versionEverywhere: true,
        tokenLifetimeS: 3,
        rateLimit: 150,
        windowMs: 10_000,
        auditNewestFirst: true,
        resendSameId: true,
        strictQuery: true,
        ssePretty: true,
        activationMs: 2000,
      },
      allow: 'should',
    },
  ],
});
