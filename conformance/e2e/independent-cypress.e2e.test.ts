// An independent deployment ("cypress", written from interface.md alone, Ruby on Rails 7 API style:
// Doorkeeper, Rack::Attack, jbuilder, Sidekiq, paper_trail) judged by the kit in process: without a
// deployment profile and with the profile declaring cypress's own choices, then with the other legal
// choices its CYPRESS_* switches turn on.
import { fileURLToPath } from 'node:url';
import { startCypress } from './independent/cypress/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/cypress/cypress-profile.json', import.meta.url));

/** A 5 s throttle period (the bounded burst meets a 429 at once) and Sidekiq retries in milliseconds. */
const FAST = { rateLimit: 200, windowMs: 5000, retryScale: 0.001 };

independentSuite({
  deployment: 'cypress',
  start: startCypress,
  runs: [
    // Without a profile the kit finds the delivery log in the OpenAPI document (GET /webhook-deliveries with
    // the receiver as its one query parameter) for the webhook checks, yet skips the cross-tenant read of one
    // receiver saying the document names no such read: held to judging it, as it does with the profile.
    { name: 'without a deployment profile', options: FAST, judged: ['tenants.foreign-entry-not-found'] },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Other legal choices at once (each is "not shown" by the interface): Doorkeeper tokens of 5 s (the kit
    // renews them), a registration replay that masks the signing key ("issued exactly once in the
    // response"), Active Record bigint ids, times rendered in config.time_zone +01:00, a stream answer cut
    // after 1 s (a router's timeout; EventSource resumes with Last-Event-ID), 1 s of Sidekiq queue latency
    // before a first delivery, form bodies read as Rails does, audit paging by a data.nextPage number, and
    // idempotency keys per client (a key reused for the other tenant is a conflict).
    {
      name: 'with the other legal choices of its CYPRESS_* switches',
      options: {
        ...FAST,
        tokenTtlSeconds: 5,
        redactKeyOnReplay: true,
        integerIds: true,
        timeZone: '+01:00',
        streamMaxMs: 1000,
        deliveryDelayMs: 1000,
        formBodies: true,
        auditNextPageField: true,
        keysPerClient: true,
      },
      profile: PROFILE,
    },
  ],
});
