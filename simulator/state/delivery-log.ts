import { WEBHOOK_DEFAULTS } from '../contract/simulator-defaults.ts';
import { RingBuffer } from '../lib/ring-buffer.ts';
import { must } from '../lib/invariant.ts';
import type { Delivery, DeliveryAttempt, DeliveryStatus } from './ports/deliveries.ts';

export type { Delivery, DeliveryAttempt, DeliveryStatus };

/** The memory delivery log: it answers every call at once (it satisfies DeliveryLogRepository). */
export interface DeliveryLog {
  /** Adds a new delivery; the receiver's oldest one is dropped beyond the per-receiver cap. */
  insert(delivery: Delivery): void;
  /** Replaces a stored delivery; false when it is no longer stored (dropped by the cap). */
  update(delivery: Delivery): boolean;
  get(id: string): Delivery | undefined;
  /** A receiver's deliveries, newest first. */
  listByReceiver(receiverId: string, opts?: { limit?: number }): Delivery[];
  countByReceiver(receiverId: string): number;
  /** Forgets a receiver's deliveries (the receiver was deleted). */
  removeReceiver(receiverId: string): void;
  clear(): void;
}

/**
 * The in-memory delivery log: at most `maxPerReceiver` deliveries per receiver.
 * @example const log = createDeliveryLog(); log.listByReceiver('wh_1', { limit: 20 });
 */
export function createDeliveryLog(opts: { maxPerReceiver?: number } = {}): DeliveryLog {
  const cap = opts.maxPerReceiver ?? WEBHOOK_DEFAULTS.maxDeliveriesPerReceiver;
  const byId = new Map<string, Delivery>();
  const byReceiver = new Map<string, RingBuffer<string>>();
  return {
    insert(delivery) {
      if (byId.has(delivery.id)) throw new Error(`delivery ${delivery.id} is already in the log`);
      let ids = byReceiver.get(delivery.receiverId);
      if (!ids) {
        ids = new RingBuffer<string>(cap);
        byReceiver.set(delivery.receiverId, ids);
      }
      const dropped = ids.push(delivery.id);
      if (dropped !== undefined) byId.delete(dropped);
      byId.set(delivery.id, delivery);
    },
    update(delivery) {
      if (!byId.has(delivery.id)) return false;
      byId.set(delivery.id, delivery);
      return true;
    },
    get: (id) => byId.get(id),
    listByReceiver(receiverId, { limit = WEBHOOK_DEFAULTS.defaultListLimit } = {}) {
      const ids = byReceiver.get(receiverId);
      if (!ids) return [];
      const out: Delivery[] = [];
      for (let i = ids.size - 1; i >= 0 && out.length < limit; i--) {
        const id = must(ids.at(i), 'a receiver index lies inside its ring');
        out.push(must(byId.get(id), 'every delivery a receiver lists is in the log'));
      }
      return out;
    },
    countByReceiver: (receiverId) => byReceiver.get(receiverId)?.size ?? 0,
    removeReceiver(receiverId) {
      const ids = byReceiver.get(receiverId);
      if (!ids) return;
      for (const id of ids.slice()) byId.delete(id);
      byReceiver.delete(receiverId);
    },
    clear() {
      byId.clear();
      byReceiver.clear();
    },
  };
}
