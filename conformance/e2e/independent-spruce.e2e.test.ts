// An independent deployment ("spruce", written from interface.md alone in the style of a NestJS team
// behind Azure API Management with Entra ID tokens, Cosmos DB and Service Bus) judged by the kit in
// process: without a deployment profile, with the profile declaring spruce's choices, and with further
// legal choices switched on.
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { RunResult } from '../index.ts';
import { startSpruce } from './independent/spruce/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/spruce/spruce-profile.json', import.meta.url));

/** Every text of the run's results: no signing key (`spk_…`) of the receivers the kit registered is in it. */
const noSigningKeyInReports = (run: RunResult) => expect(JSON.stringify(run.results)).not.toMatch(/spk_[\w-]{20,}/);

/** A 5 s window, so the profile's bounded burst meets a 429 at once and the kit's own calls rarely do. */
const FAST = { rateLimit: 250, windowMs: 5000 };

/**
 * Further legal choices, each a real Azure habit: Service-Version mandatory on authenticated calls (the kit
 * sends it), a missing tenant refused 403, unknown body fields refused (NestJS forbidNonWhitelisted), times
 * as DateTimeOffset (+00:00), lists lagging writes by 1.5 s and the change feed by 1 s (Cosmos across
 * regions), an oldest-first audit log paged by nextLink, the gateway ending streams after 1.5 s, Event
 * Grid's signed validation handshake to a new receiver, and CloudEvents in binary mode (ce-* headers).
 */
const AZURE = {
  ...FAST,
  serviceVersionRequired: true,
  missingTenantForbidden: true,
  forbidUnknownFields: true,
  offsetTimes: true,
  listLagMs: 1500,
  changeFeedDelayMs: 1000,
  auditOldestFirst: true,
  streamMaxMs: 1500,
  validationPing: true,
  binaryWebhooks: true,
};

independentSuite({
  deployment: 'spruce',
  start: startSpruce,
  runs: [
    // Spruce withholds the signing key in a replayed registration ("issued exactly once"): without the profile
    // the kit finds the key's field (data.secret.value) itself, leaves it out of the replay's comparison, and
    // no report prints a key (before, webhooks.registration-replay failed printing it in clear).
    {
      name: 'without a deployment profile',
      options: FAST,
      judged: ['webhooks.registration-replay', 'webhooks.delivery-log', 'webhooks.redelivery'],
      also: noSigningKeyInReports,
    },
    // Event Grid style batches (a JSON array of CloudEvents) and binary mode (the event id in `ce-id`): the
    // kit finds the delivery in the log by every event id of the array and by id headers (before, both
    // skipped saying the log's entries "name none of the events the receiver got").
    {
      name: 'without a deployment profile, CloudEvents in batches',
      options: { ...FAST, batchWindowMs: 300 },
      judged: ['webhooks.delivery-log', 'webhooks.redelivery'],
      also: noSigningKeyInReports,
    },
    {
      name: 'without a deployment profile, CloudEvents in binary mode',
      options: { ...FAST, binaryWebhooks: true },
      judged: ['webhooks.delivery-log', 'webhooks.redelivery'],
    },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    { name: 'with further Azure choices and its profile', options: AZURE, profile: PROFILE, judged: PROFILE_JUDGED },
  ],
});
