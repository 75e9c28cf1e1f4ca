import { WEBHOOK_DEFAULTS } from '../contract/simulator-defaults.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import type { EventBus } from '../state/domain-events.ts';
import { andThen, type MaybePromise } from '../state/ports/maybe-promise.ts';
import type { ReceiverRecord, ReceiverRepository } from '../state/ports/receivers.ts';
import type { Caller } from './connection-service.ts';

/** A receiver as its tenant sees it: no secret, with the name of the header its deliveries are signed in. */
export type PublicReceiver = Omit<ReceiverRecord, 'secret' | 'tenant'> & { signatureHeader: string };

/** @example publicReceiver(record, 'NCS-Signature') // { id, url, events, signatureHeader, createdAt } */
export function publicReceiver(r: ReceiverRecord, signatureHeader: string): PublicReceiver {
  return { id: r.id, url: r.url, events: r.events, signatureHeader, createdAt: r.createdAt };
}

/** A tenant at its receiver limit registering one more (the handler answers invalid_request). */
export class ReceiverLimitError extends Error {
  readonly max: number;
  constructor(max: number) {
    super(`This tenant has ${max} webhook receivers, the most this sandbox keeps for one tenant.`);
    this.max = max;
  }
}

/**
 * Webhook receivers and their rules over a repository port: at most `maxPerTenant` per tenant, an
 * unguessable signing secret answered once, events named once each, and the `webhook.created` event.
 * Each method answers at once when the repository does (memory) and with a promise when it waits.
 * @example const { receiver, secret } = await receivers.create('harbour-kitchens', { url, events: ['order.paid'] }, caller);
 */
export interface ReceiverService {
  /** Receivers a tenant may have at once. */
  readonly maxPerTenant: number;
  /** Registers a receiver: ReceiverLimitError past the tenant's limit. */
  create(
    tenant: string,
    input: { url: string; events: string[] },
    caller?: Caller,
  ): MaybePromise<{ receiver: ReceiverRecord; secret: string }>;
  list(tenant: string): MaybePromise<ReceiverRecord[]>;
  get(tenant: string, id: string): MaybePromise<ReceiverRecord | undefined>;
  /** Removes a tenant's receiver; false when it has none with this id. */
  remove(tenant: string, id: string): MaybePromise<boolean>;
  /** A tenant's receivers subscribed to an event name (the fan-out of events). */
  subscribedTo(tenant: string, event: string): MaybePromise<ReceiverRecord[]>;
  count(): MaybePromise<number>;
  clear(): MaybePromise<void>;
}

export interface ReceiverServiceDeps {
  repository: ReceiverRepository;
  clock: Clock;
  events: EventBus;
  /** Name of the header deliveries are signed in (shown on every receiver). */
  signatureHeader: string;
  /** Default WEBHOOK_DEFAULTS.maxReceiversPerTenant (100). */
  maxPerTenant?: number;
}

/** @example const receivers = createReceiverService({ repository: createWebhookReceiverStore(), clock, events, signatureHeader }); */
export function createReceiverService(deps: ReceiverServiceDeps): ReceiverService {
  const { repository: repo, events } = deps;
  const maxPerTenant = deps.maxPerTenant ?? WEBHOOK_DEFAULTS.maxReceiversPerTenant;
  return {
    maxPerTenant,
    create(tenant, input, caller = { actor: 'sandbox-admin', requestId: 'control' }) {
      return andThen(repo.countFor(tenant), (count) => {
        if (count >= maxPerTenant) throw new ReceiverLimitError(maxPerTenant);
        const at = caller.at ?? deps.clock.now();
        const secret = newId('whsec', 32);
        const receiver: ReceiverRecord = {
          id: newId('wh'),
          tenant,
          url: input.url,
          events: [...new Set(input.events)],
          secret,
          createdAt: new Date(at).toISOString(),
        };
        return andThen(repo.insert(receiver), () => {
          events.emit({
            type: 'webhook.created',
            tenant,
            actor: caller.actor,
            requestId: caller.requestId,
            at,
            target: { type: 'webhook', id: receiver.id },
            data: { webhook: publicReceiver(receiver, deps.signatureHeader) },
          });
          return { receiver, secret };
        });
      });
    },
    list: (tenant) => repo.list(tenant),
    get: (tenant, id) => repo.get(tenant, id),
    remove: (tenant, id) => repo.remove(tenant, id),
    subscribedTo: (tenant, event) => repo.subscribedTo(tenant, event),
    count: () => repo.count(),
    clear: () => repo.clear(),
  };
}
