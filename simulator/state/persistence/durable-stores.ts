import type { Delivery, DeliveryLog } from '../delivery-log.ts';
import type { Persistence } from './persistence.ts';

const DELIVERIES = 'deliveries';

/**
 * A delivery log that writes every record through and restores it at start. `pendingAtStart` lists
 * the restored deliveries still pending (cut by a shutdown or a kill), for the dispatcher to resume.
 */
export function durableDeliveries(
  log: DeliveryLog,
  p: Persistence,
): DeliveryLog & { pendingAtStart: readonly Delivery[] } {
  if (!p.durable) return Object.assign(log, { pendingAtStart: [] });
  const stored = [...p.entries<Delivery>(DELIVERIES)]
    .map(([, d]) => d)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const d of stored) log.insert(d);
  return {
    ...log,
    pendingAtStart: stored.filter((d) => d.status === 'pending' && log.get(d.id) === d),
    insert(d) {
      log.insert(d);
      p.put(DELIVERIES, d.id, d);
    },
    update(d) {
      const kept = log.update(d);
      if (kept) p.put(DELIVERIES, d.id, d);
      return kept;
    },
    removeReceiver(receiverId) {
      for (const d of log.listByReceiver(receiverId, { limit: log.countByReceiver(receiverId) || 1 }))
        p.delete(DELIVERIES, d.id);
      log.removeReceiver(receiverId);
    },
    clear() {
      log.clear();
      p.deleteNamespace(DELIVERIES);
    },
  };
}
