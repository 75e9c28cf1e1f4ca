// An independent deployment ("dogwood", written from interface.md alone, NestJS behind Kong style)
// judged by the kit in process: without a deployment profile and with the profile declaring dogwood's
// own choices, with its other legal choices together, and with string receiver ids beside integer
// delivery ids.
import { fileURLToPath } from 'node:url';
import { startDogwood } from './independent/dogwood/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/dogwood/dogwood-profile.json', import.meta.url));

/** A 5 s fixed window (Kong's "minute" shortened) and a short BullMQ backoff, so 429s and retries come in seconds. */
const FAST = { rateLimit: 200, windowMs: 5000, backoffMs: 50 };

independentSuite({
  deployment: 'dogwood',
  start: startDogwood,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    // Receiver ids are Prisma integers (`"id": 1`; "Response fields: not shown"): the kit skipped the delivery
    // log and redelivery ("the creation answer names no receiver id (data.id …)") although the profile declares
    // both paths, so PROFILE_JUDGED is not met (reported, kit not changed).
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Other legal choices together: Service-Version mandatory ("Whether the header is mandatory ...: not
    // shown"), unknown body fields refused (forbidNonWhitelisted), 5 s tokens, string ids, no delivery-id
    // header, refusals replayed under their key, Kong's limit on public routes too, audit paged by page/pageSize,
    // untyped stream messages and numbered heartbeats.
    {
      name: 'with its other legal choices together',
      options: {
        ...FAST,
        serviceVersionRequired: true,
        forbidUnknown: true,
        tokenTtlSec: 5,
        stringIds: true,
        noDeliveryHeader: true,
        replayRefusals: true,
        limitPublic: true,
        auditPages: true,
        untypedStream: true,
        heartbeatMs: 300,
      },
      profile: PROFILE,
      judged: PROFILE_JUDGED,
    },
    // String receiver ids, integer delivery ids: without a profile the kit found the delivery in the log by
    // its event id and then sent that event id as {deliveryId} to the resend path (400), a SHOULD failure of
    // webhooks.redelivery (reported, kit not changed).
    { name: 'with string receiver ids and integer delivery ids', options: { ...FAST, stringIds: 'receivers' } },
  ],
});
