import { WEBHOOK_DEFAULTS } from '../contract/simulator-defaults.ts';
import { RingBuffer } from '../lib/ring-buffer.ts';
import { must } from '../lib/invariant.ts';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One POST to a receiver. Plain data (JSON/SQLite friendly). */
export interface DeliveryAttempt {
  /** 1, 2, 3 … over the whole life of the delivery, redeliveries included. */
  n: number;
  /** 1 for the original sequence of attempts, 2 for the first redelivery, … */
  sequence: number;
  /** When the attempt started (ISO 8601). */
  at: string;
  /** The receiver's HTTP status, when it answered at all. */
  status?: number;
  durationMs: number;
  /** Why the attempt failed: `http_<status>`, `redirect_not_followed`, `timeout`, `network: <code>`, `queue_full`, `shutdown`. */
  error?: string;
  /** Name of the signature header this attempt carried (records from before 2026-11-25 lack it). */
  signatureHeader?: string;
  /** Its value exactly as sent: `t=<unix-seconds>,v1=<hex>`. */
  signature?: string;
}

/** A delivery of one event to one receiver, with every attempt. Records are replaced, never mutated. */
export interface Delivery {
  id: string;
  receiverId: string;
  tenant: string;
  eventId: string;
  eventType: string;
  url: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** Sequences started so far (1 + redeliveries). */
  sequences: number;
  createdAt: string;
  updatedAt: string;
  /** When the next retry is due, while one is scheduled. */
  nextAttemptAt?: string;
  /** Why the delivery failed for good: the last attempt's error, or `queue_full`. */
  error?: string;
  /** The exact JSON body sent (and signed) on every attempt. */
  body: string;
}

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
