// An independent deployment ("elm", written from interface.md alone, ASP.NET Core style on node:http)
// judged by the kit in process: without a deployment profile and with the profile declaring elm's choices.
// Expected: no failed MUST, no failed SHOULD, exit code 0. Each run gets a fresh elm: its fixed window of
// 600 calls a minute per client id would otherwise be spent by the first run (~370 calls).
import { fileURLToPath } from 'node:url';
import { startElm } from './independent/elm/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/elm/elm-profile.json', import.meta.url));

independentSuite({
  deployment: 'elm',
  start: startElm,
  runs: [
    { name: 'without a deployment profile' },
    { name: 'with its deployment profile', profile: PROFILE, judged: PROFILE_JUDGED },
    // Another legal choice: Service-Version mandatory (the contract: "Whether the header is mandatory ... not shown").
    {
      name: 'with Service-Version mandatory',
      profile: PROFILE,
      options: { serviceVersionRequired: true },
      allow: 'should',
    },
    // Timing choices the contract leaves open: streams the server ends after 1.5 s (clients resume) and an
    // outbox relayed every 2 s.
    {
      name: 'with short-lived streams and a slow outbox',
      profile: PROFILE,
      options: { streamMaxMs: 1500, outboxPollMs: 2000 },
      allow: 'should',
    },
    // Access tokens of 3 s (lifetimes are "not shown"): the kit must renew its token during the run. (2 s ran
    // out in flight, renewals included, when a loaded CI run shared the worker with five other kit runs.)
    { name: 'with 3 s tokens', profile: PROFILE, options: { tokenLifetimeS: 3 }, allow: 'should' },
    // An audit log whose page holds at most 20 entries ("Response fields and further parameters: not shown";
    // the OpenAPI document states maximum 20): the kit reads the maximum from the document (was: ?limit=50 always).
    {
      name: 'with an audit-log limit of at most 20',
      profile: PROFILE,
      options: { auditMaxLimit: 20 },
      allow: 'should',
    },
  ],
});
