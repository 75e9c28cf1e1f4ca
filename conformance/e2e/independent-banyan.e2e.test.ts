// An independent deployment ("banyan", written from interface.md alone, event-sourcing style: one event store
// whose global positions number the stream, a hash-chained audit projection per tenant) judged by the kit in
// process: without a deployment profile and with the profile declaring banyan's own choices, then with other
// legal choices switched on.
import { fileURLToPath } from 'node:url';
import { startBanyan } from './independent/banyan/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/banyan/banyan-profile.json', import.meta.url));

/** A short refill window (a bucket of 300 refilled over 5 s), so the profile's bounded burst meets a 429 fast. */
const FAST = { rateLimit: 300, windowMs: 5000, retryBaseMs: 200 };

independentSuite({
  deployment: 'banyan',
  start: startBanyan,
  // One public stream of the event store's positions, each message naming its tenant: legal ("Names of the
  // message kinds and the payload of a message: not shown"), and the kit warns (a SHOULD: what tenant
  // isolation keeps from another tenant, an anonymous reader of the public stream should not read either).
  warns: ['sse.public-without-credentials'],
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Other legal choices in one run: Service-Version mandatory on authenticated calls ("Whether the header is
    // mandatory and what happens with an unknown value: not shown"; the kit sends it on every call), audit pages
    // offered only by a Link header (paging not shown), and a stream response that ends after two messages
    // ("After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter
    // cursor"): the kit follows it (it failed generated.resume-into-live-* when a backlog of a busy global stream
    // took more than its 20 reconnects: only reconnects in a row that bring nothing are counted since).
    // (A 500 ms projection lag, `projectionLagMs`, passes: tried by hand, left out to keep this file's CPU low.)
    {
      name: 'with a mandatory Service-Version, Link-only audit paging and stream responses of two messages',
      options: { ...FAST, serviceVersionRequired: true, auditLinkOnly: true, streamMaxMessages: 2 },
      profile: PROFILE,
    },
  ],
});
