// An independent deployment ("sassafras", written from interface.md alone, ASP.NET Core style) judged by the
// kit in process: without a deployment profile and with the profile declaring sassafras's own choices, then
// with other legal choices of its own at once (see the third run).
import { fileURLToPath } from 'node:url';
import { startSassafras } from './independent/sassafras/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/sassafras/sassafras-profile.json', import.meta.url));

/** A short sliding window, so the profile's bounded burst meets a 429 within a second or two. */
const FAST = { rateLimit: 300, windowMs: 5000 };

independentSuite({
  deployment: 'sassafras',
  start: startSassafras,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    // Two more checks must judge sassafras (the kit skipped both with a reason that was not true, until it read
    // them): audit.chain-links (entries numbered `sequenceNumber` 1, 2, 3, … with entryHash/previousEntryHash) and
    // tenants.foreign-entry-not-found (receivers managed under GET /webhook-subscriptions/{id} and its delivery log).
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.chain-links', 'tenants.foreign-entry-not-found'],
    },
    // Legal choices the interface leaves open, at once (one run keeps the file's CPU low): Service-Version
    // mandatory ("Whether the header is mandatory …: not shown") and the delivery log refused to 2026-06-12
    // callers (it "was added" in 2026-07-01); a replayed registration without the signing key ("issued exactly
    // once in the response"); 3 s tokens ("token lifetimes: not shown"; the kit renews them); unknown body fields
    // ignored as System.Text.Json does (listed fields still required); the audit log newest first.
    {
      name: 'with other legal choices (mandatory Service-Version, 3 s tokens, lenient binding, newest-first audit)',
      options: {
        ...FAST,
        requireServiceVersion: true,
        strictVersions: true,
        redactKeyOnReplay: true,
        tokenLifetimeSec: 3,
        ignoreUnknownFields: true,
        auditNewestFirst: true,
      },
      profile: PROFILE,
    },
  ],
});
