import { memoryOnly, type Persistence } from './persistence/persistence.ts';
import type { ReceiverRecord, ReceiverRepository } from './ports/receivers.ts';

export type { ReceiverRecord };

const NS = 'webhooks';

/**
 * The memory repository of webhook receivers (ports/receivers.ts), written through to `persistence`
 * (SQLite with --data-dir). It answers every call at once.
 * @example const repository = createWebhookReceiverStore(persistence); repository.insert(receiver);
 */
export function createWebhookReceiverStore(persistence: Persistence = memoryOnly): ReceiverRepository {
  const byId = new Map<string, ReceiverRecord>(persistence.entries<ReceiverRecord>(NS));
  const ofTenant = (tenant: string) => [...byId.values()].filter((r) => r.tenant === tenant);
  return {
    insert(receiver) {
      byId.set(receiver.id, receiver);
      persistence.put(NS, receiver.id, receiver);
    },
    get(tenant, id) {
      const r = byId.get(id);
      return r && r.tenant === tenant ? r : undefined;
    },
    list: ofTenant,
    countFor: (tenant) => ofTenant(tenant).length,
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
