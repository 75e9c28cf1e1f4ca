// An independent deployment ("oak", written from interface.md alone, PHP Laravel behind Cloudflare style)
// judged by the kit in process: without a deployment profile and with the profile declaring oak's own choices,
// then with two bundles of other legal choices oak offers as options.
import { fileURLToPath } from 'node:url';
import { startOak } from './independent/oak/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/oak/oak-profile.json', import.meta.url));

/** A short sliding window, so the profile's bounded burst meets a 429 within a few seconds. */
const FAST = { rateLimit: 300, windowMs: 5000 };

independentSuite({
  deployment: 'oak',
  start: startOak,
  runs: [
    // Without a profile its delivery log (`/webhooks/{id}/attempts`) and resend route are read from its
    // document, and its own routes with numeric ids (404 to a made-up id before auth) are noted, not failed.
    {
      name: 'without a deployment profile',
      options: FAST,
      judged: ['webhooks.delivery-log', 'webhooks.redelivery', 'discovery.auth-flags-observed'],
    },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // What the interface leaves open, chosen the other way: Service-Version mandatory, unknown body fields
    // refused, keys per client (the tenant counts as content: another tenant's reuse is a conflict), PHP's
    // escaped slashes (`orders\/read`), webhooks sent by a queue worker 1.5 s later, and the audit log oldest
    // first, 25 a page, a larger `limit` refused with 400 (the maximum is documented in openapi.json).
    {
      name: 'with a mandatory Service-Version, per-client keys and an oldest-first capped audit log',
      options: {
        ...FAST,
        requireServiceVersion: true,
        strictBodies: true,
        keyScope: 'client' as const,
        escapeSlashes: true,
        queueDelayMs: 1500,
        auditOldestFirst: true,
        auditMaxPerPage: 25,
        auditLimitPolicy: 'refuse' as const,
      },
      profile: PROFILE,
    },
    // Short-lived tokens (renewed by the kit), streams ended after 3 s of silence, enablement after 2 s.
    {
      name: 'with 3 s tokens, 3 s stream idle and slow enablement',
      options: { ...FAST, tokenTtlSeconds: 3, streamIdleSeconds: 3, enableAfterMs: 2000 },
    },
  ],
});
