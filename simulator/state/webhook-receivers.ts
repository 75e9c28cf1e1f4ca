import { WEBHOOK_DEFAULTS } from '../contract/simulator-defaults.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { memoryOnly, type Persistence } from './persistence/persistence.ts';

const NS = 'webhooks';

/** A registered receiver. The secret stays inside the simulator: only `create` returns it, once. */
export interface ReceiverRecord {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: string;
}

export type PublicReceiver = Omit<ReceiverRecord, 'secret' | 'tenant'> & { signatureHeader: string };

/**
 * Webhook receivers per tenant.
 * @example const { receiver, secret } = receivers.create('harbour-kitchens', { url, events: ['order.paid'] });
 */
export interface WebhookReceiverStore {
  create(
    tenant: string,
    input: { url: string; events: string[] },
    at?: number,
  ): { receiver: ReceiverRecord; secret: string };
  list(tenant: string): ReceiverRecord[];
  get(tenant: string, id: string): ReceiverRecord | undefined;
  /** Removes a tenant's receiver; false when it has none with this id. */
  remove(tenant: string, id: string): boolean;
  /** Receivers of a tenant subscribed to an event name. */
  subscribedTo(tenant: string, event: string): ReceiverRecord[];
  count(): number;
  /** Receivers a tenant may have at once (creation past it is refused by the handler). */
  readonly maxPerTenant: number;
  clear(): void;
}

export function createWebhookReceiverStore(
  clock: Clock,
  persistence: Persistence = memoryOnly,
  maxPerTenant: number = WEBHOOK_DEFAULTS.maxReceiversPerTenant,
): WebhookReceiverStore {
  const byId = new Map<string, ReceiverRecord>(persistence.entries<ReceiverRecord>(NS));
  return {
    maxPerTenant,
    create(tenant, input, at = clock.now()) {
      const secret = newId('whsec', 32);
      const receiver: ReceiverRecord = {
        id: newId('wh'),
        tenant,
        url: input.url,
        events: [...new Set(input.events)],
        secret,
        createdAt: new Date(at).toISOString(),
      };
      byId.set(receiver.id, receiver);
      persistence.put(NS, receiver.id, receiver);
      return { receiver, secret };
    },
    list: (tenant) => [...byId.values()].filter((r) => r.tenant === tenant),
    get(tenant, id) {
      const r = byId.get(id);
      return r && r.tenant === tenant ? r : undefined;
    },
    remove(tenant, id) {
      const r = byId.get(id);
      if (!r || r.tenant !== tenant) return false;
      byId.delete(id);
      persistence.delete(NS, id);
      return true;
    },
    subscribedTo: (tenant, event) => [...byId.values()].filter((r) => r.tenant === tenant && r.events.includes(event)),
    count: () => byId.size,
    clear() {
      byId.clear();
      persistence.deleteNamespace(NS);
    },
  };
}
