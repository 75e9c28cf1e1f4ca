import type { MaybePromise } from './maybe-promise.ts';

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

/**
 * Where deliveries are logged: every delivery of an event to a receiver with all its attempts, at most
 * a fixed number per receiver. The dispatcher (webhooks/dispatcher.ts) is the service above it; its
 * writes replace whole records and are issued in order without waiting (an adapter across the network
 * keeps their order, e.g. on one connection), so a lost write is healed by the record's next one.
 * Every method may answer with a promise; the memory log answers at once.
 * @example andThen(log.get(id), (d) => d?.status)
 */
export interface DeliveryLogRepository {
  /** Adds a new delivery; the receiver's oldest one is dropped beyond the per-receiver cap. */
  insert(delivery: Delivery): MaybePromise<void>;
  /** Replaces a stored delivery; false when it is no longer stored (dropped by the cap). */
  update(delivery: Delivery): MaybePromise<boolean>;
  get(id: string): MaybePromise<Delivery | undefined>;
  /** A receiver's deliveries, newest first. */
  listByReceiver(receiverId: string, opts?: { limit?: number }): MaybePromise<Delivery[]>;
  countByReceiver(receiverId: string): MaybePromise<number>;
  /** Forgets a receiver's deliveries (the receiver was deleted). */
  removeReceiver(receiverId: string): MaybePromise<void>;
  clear(): MaybePromise<void>;
}
