// An independent deployment ("hackberry", written from interface.md alone, OCaml Dream team style) judged
// by the kit in process: without a deployment profile, with the profile declaring hackberry's own choices,
// and with other legal choices of its own (5 s tokens, audit pages of at most 5, an empty genesis link,
// openapi.json served bare). Expected: no failed MUST or SHOULD, exit code 0, and the audit chain judged.
//
// The first two runs serve openapi.json inside the success envelope (data = the OpenAPI object), as the
// team's envelope middleware wraps every JSON success; the interface says "Success envelope (every JSON
// success response)". The kit reads `openapi` at the top level only and fails discovery.openapi-valid,
// discovery.interface-routes-listed and discovery.routes-match-openapi: a wrong verdict left failing here
// for the lead (the kit is not changed by this file).
import { fileURLToPath } from 'node:url';
import { startHackberry } from './independent/hackberry/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/hackberry/hackberry-profile.json', import.meta.url));

/** A 5 s limiter window (at least 5 s: a loaded worker is slow), so the profile's bounded burst meets a 429. */
const FAST = { rateLimit: 250, windowMs: 5000 };

independentSuite({
  deployment: 'hackberry',
  start: startHackberry,
  timeout: 120_000,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.entry-hash', 'audit.chain-links'],
    },
    // Other legal choices (token lifetimes and the audit proof's format are not shown): tokens of 5 s the kit
    // must renew mid-run, audit pages clamped to 5 entries, a chain whose first link is the empty string, and
    // GET /connections newest first (its order is not shown), and openapi.json as the bare document (the
    // reading the kit accepts), so every discovery check is judged.
    {
      name: 'with 5 s tokens, audit pages of 5, an empty genesis link, newest-first lists and a bare openapi.json',
      options: {
        ...FAST,
        tokenTtlSeconds: 5,
        auditMaxLimit: 5,
        auditGenesis: 'empty' as const,
        openapiEnvelope: false,
      },
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.entry-hash', 'audit.chain-links', 'discovery.openapi-valid'],
    },
  ],
});
