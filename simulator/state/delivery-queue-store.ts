import type { DeliveryQueueRepository, QueuedDelivery } from './ports/delivery-queue.ts';

/**
 * The memory repository of the dispatcher's queue: pending jobs in a Map (its order is arrival order, so
 * the oldest is its first entry) and the draining ones in another.
 * @example const queue = createDeliveryQueueStore<Job>(); queue.add(job); queue.oldest() === job // true
 */
export function createDeliveryQueueStore<J extends QueuedDelivery>(): DeliveryQueueRepository<J> {
  const pending = new Map<string, J>();
  const draining = new Map<string, J>();
  return {
    add(job) {
      pending.set(job.record.id, job);
    },
    pending: (id) => pending.get(id),
    oldest: () => pending.values().next().value,
    remove: (id) => pending.delete(id),
    drain(job) {
      pending.delete(job.record.id);
      draining.set(job.record.id, job);
    },
    draining: (id) => draining.get(id),
    undrain: (id) => draining.delete(id),
    size: () => pending.size,
    all: () => [...pending.values(), ...draining.values()],
    clear() {
      pending.clear();
      draining.clear();
    },
  };
}
