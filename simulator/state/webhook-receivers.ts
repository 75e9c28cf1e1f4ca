import type { ReceiverRecord, ReceiverRepository } from './ports/receivers.ts';

export type { ReceiverRecord };

/**
 * The memory repository of webhook receivers (ports/receivers.ts). It answers every call at once. The
 * write-through to a data dir is a decorator's (persistence/durable-receivers.ts).
 * @example const repository = createWebhookReceiverStore(); repository.insert(receiver);
 */
export function createWebhookReceiverStore(): ReceiverRepository {
  const byId = new Map<string, ReceiverRecord>();
  const ofTenant = (tenant: string) => [...byId.values()].filter((r) => r.tenant === tenant);
  return {
    insert(receiver) {
      byId.set(receiver.id, receiver);
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
      return true;
    },
    subscribedTo: (tenant, event) => [...byId.values()].filter((r) => r.tenant === tenant && r.events.includes(event)),
    count: () => byId.size,
    clear() {
      byId.clear();
    },
  };
}
