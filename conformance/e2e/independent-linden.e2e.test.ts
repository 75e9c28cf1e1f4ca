// An independent deployment ("linden", written from interface.md alone, Python Litestar + msgspec + Authlib +
// Dramatiq style) judged by the kit in process: without a deployment profile and with the profile declaring
// linden's own choices, then with many other legal choices at once, and with repeated capabilities refused.
import { fileURLToPath } from 'node:url';
import { startLinden } from './independent/linden/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/linden/linden-profile.json', import.meta.url));

/** Short sliding windows, so the profile's bounded burst meets a 429 within a second or two. */
const FAST = { accessLimit: 400, tenantLimit: 800, windowMs: 3000, retryBaseMs: 200, maxRetries: 3 };

independentSuite({
  deployment: 'linden',
  start: startLinden,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Choices the interface leaves open, all at once (each was also run alone): Service-Version mandatory and
    // unknown values refused ("Whether the header is mandatory and what happens with an unknown value: not
    // shown"); the audit log newest first, 20 a page, keyset by a bare `nextBefore`, snake_case entries
    // ("Response fields and further parameters: not shown"); receiver and delivery ids as numbers, a requeue
    // re-sending the same message ("the paths and payloads are not shown"); streams cut after 1 s and a
    // cursor ahead of the newest message refused (the client "resumes" after an interruption); unknown query
    // parameters refused; client_secret_post only, Python timestamps, a tenant window below the access window,
    // and repeated capabilities merged into a set ("a set of capabilities").
    {
      name: 'with other legal choices at once',
      options: {
        ...FAST,
        tenantLimit: 300,
        serviceVersionRequired: true,
        refuseUnknownVersion: true,
        auditNewestFirst: true,
        auditPaging: 'next-after',
        auditMaxLimit: 20,
        auditSnakeCase: true,
        numericIds: true,
        requeueSameMessage: true,
        streamMaxMs: 1000,
        refuseCursorAhead: true,
        strictQuery: true,
        tokenAuthMethods: ['client_secret_post'],
        pythonTimes: true,
        capabilityList: 'set',
      },
      profile: PROFILE,
      judged: PROFILE_JUDGED,
    },
    // Kit finding: the interface calls a connection's capabilities "a set" and states only 1 to 24 items of 2 to
    // 120 characters; refusing a repeated entry (400) is linden's strict reading. The kit's 24-item probe repeats
    // the connector's few capabilities and took that 400 for a broken limit (generated.probes-create-connection);
    // it now sends two of the same value too, and a 400 to both is a set's reading, not judged (session 20).
    { name: 'with repeated capabilities refused', options: { ...FAST, capabilityList: 'unique' }, profile: PROFILE },
  ],
});
