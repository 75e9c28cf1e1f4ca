// An independent deployment ("tamarack", written from interface.md alone: a Scala Play team behind HAProxy,
// Kafka offsets as stream numbers, opaque introspected tokens, an outbox for webhooks, a signed Merkle audit
// log) judged by the kit in process: without and with its deployment profile, then with two other legal
// choices of its own.
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { startTamarack } from './independent/tamarack/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/tamarack/tamarack-profile.json', import.meta.url));

/** A short fixed window (HAProxy stick-table expiry), so the profile's bounded burst meets a 429 in seconds. */
const FAST = { rateLimit: 300, windowMs: 5000 };

independentSuite({
  deployment: 'tamarack',
  start: startTamarack,
  timeout: 120_000,
  runs: [
    // Its event names are its own (connection.requested, …): without the profile the kit reads them from the
    // OpenAPI document (POST /webhooks: events.items.enum) and subscribes to the one a new connection triggers
    // first (before, it guessed connection.created, was refused 400 and skipped every delivery check).
    {
      name: 'without a deployment profile',
      options: FAST,
      judged: [
        'webhooks.registration',
        'webhooks.delivery-arrives',
        'webhooks.signature',
        'webhooks.registration-replay',
        // Its delivery log is its outbox (GET /webhooks/{id}/outbox, POST …/outbox/{deliveryId}/requeue), read
        // from its OpenAPI document.
        'webhooks.delivery-log',
        'webhooks.redelivery',
      ],
      also: (run) => {
        const notes = run.results.find((r) => r.check.name === 'webhooks.registration')?.notes ?? [];
        expect(notes.join('\n')).toMatch(/subscribed to connection\.requested, taken from the OpenAPI document/);
      },
    },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Other legal choices at once: Service-Version mandatory (400 without it), an oldest-first audit log,
    // refused creations (404, 409 capability_denied) replayed under their key (Stripe-like: "the same response
    // again"), and a stream as HAProxy and Kafka give it: cut after 1.5 s (`timeout tunnel`), messages 400 ms
    // late (consumer lag), offsets starting at 48213 (older records removed by retention).
    {
      name: 'with Service-Version mandatory, an oldest-first audit log, replayed refusals and a cut, lagging stream',
      options: {
        ...FAST,
        serviceVersionRequired: true,
        auditOldestFirst: true,
        replayRefusals: true,
        streamMaxMs: 1500,
        streamLagMs: 400,
        offsetBase: 48213,
      },
      profile: PROFILE,
      judged: PROFILE_JUDGED,
    },
    // The replayed registration repeats the signing key ("the same response again"), and a tight window (its
    // values are not shown) that answers some of the kit's calls 429.
    {
      name: 'with the signing key in a replay and 60 calls per 2 s',
      options: { keyOnReplay: true, rateLimit: 60, windowMs: 2000 },
      profile: PROFILE,
      allow: 'should',
    },
  ],
});
