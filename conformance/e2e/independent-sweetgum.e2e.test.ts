// An independent deployment ("sweetgum", written from interface.md alone, Dart shelf team style) judged by
// the kit in process: without a deployment profile, with the profile declaring sweetgum's own choices, and
// with other legal choices of its own (5-second tokens, an Ed25519-signed chain head, audit pages of 5).
// Expected: no failed MUST or SHOULD, exit code 0, and the audit chain judged.
import { fileURLToPath } from 'node:url';
import { startSweetgum } from './independent/sweetgum/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/sweetgum/sweetgum-profile.json', import.meta.url));

/** A 5 s fixed window of 250 calls (50 a second: a loaded worker still reaches it), so the profile's bounded burst (1500 GETs) meets a 429 within one window. */
const FAST = { rateLimit: 250, windowMs: 5000 };

independentSuite({
  deployment: 'sweetgum',
  start: startSweetgum,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.entry-hash'],
    },
    // Other legal choices of the Dart team: token lifetimes are not shown (5 s tokens, renewed mid-run), the
    // proof's format is not shown (the chain head also signed with Ed25519), nor the page size (5), what a
    // stream without a cursor sends (here: the whole log), the token endpoint's client authentication
    // (client_secret_basic only, package:oauth2's default), whether Service-Version is mandatory (here: yes),
    // and the RouteInfo path syntax (shelf_router's `<param>`, e.g. `/openapi/<version>.yaml`). A Postgres
    // round trip of 5 ms per query makes concurrent same-key creations overlap.
    // EXPECTED TO FAIL until the kit is fixed (WRONG VERDICT, reported to the lead): the kit turns a whole
    // segment `<webhookId>` into a parameter but fetches `/openapi/<version>.yaml` literally (MUST
    // openapi.yaml-matches-json) and misses it in openapi.json (SHOULD discovery.routes-match-openapi).
    {
      name: 'with 5 s tokens, a signed chain head, pages of 5, a mandatory Service-Version and shelf paths',
      // A wider window (500 per 5 s): this run judges the concurrent same-key creations, which a window spent by
      // the run's other calls (about 850) answers 429 all five on a loaded worker; it judges no 429 itself.
      options: {
        ...FAST,
        rateLimit: 500,
        tokenTtlSeconds: 5,
        auditProof: 'signed' as const,
        auditMaxPageSize: 5,
        streamReplayAll: true,
        basicAuthOnly: true,
        versionRequired: true,
        shelfPaths: true,
        dbLatencyMs: 5,
      },
      profile: PROFILE,
      judged: ['audit.entry-hash', 'audit.signature', 'idempotency.concurrent', 'generated.concurrent-same-key'],
    },
  ],
});
