import type { Delivery } from '../delivery-log.ts';

/**
 * A delivery this process is working on: its record (the copy of the delivery log's) and the live
 * handles of its attempts. The dispatcher's jobs carry more (receiver, attempt counts); the queue needs these.
 */
export interface QueuedDelivery {
  record: Delivery;
  /** Why it left the queue before it was done (evicted by a full queue, or the process shut down). */
  stopped?: 'queue_full' | 'shutdown' | undefined;
  /** Cancels the timer of its next attempt. */
  cancelRetry?: (() => void) | undefined;
  /** Aborts its attempt in flight. */
  abort?: ((tag: 'queue_full' | 'shutdown') => void) | undefined;
}

/**
 * Where the dispatcher keeps the deliveries it is working on: pending ones in arrival order, and those
 * evicted while an attempt was in flight (draining) until that attempt ends. It judges nothing (no bound,
 * no status, no clock): the delivery queue service (services/delivery-queue-service.ts) does.
 *
 * Every member stays in this process and answers at once (no MaybePromise), whatever the adapter: a job
 * holds live handles (its retry timer, the abort of its HTTP request in flight) that cannot leave the
 * process. What outlives the process is the job's record in the delivery log (ports/deliveries.ts, written
 * through and shared), from which a restart resumes; which replica makes an attempt is decided by leases
 * (the dispatcher's AttemptCoordinator), never by this queue.
 * @example queue.add(job); queue.pending(job.record.id) === job // true
 */
export interface DeliveryQueueRepository<J extends QueuedDelivery = QueuedDelivery> {
  /** Adds a pending job as the newest (a job already pending keeps its place). */
  add(job: J): void;
  /** A pending job by delivery id. */
  pending(id: string): J | undefined;
  /** The job pending longest. */
  oldest(): J | undefined;
  /** Takes a job out of the pending ones. */
  remove(id: string): boolean;
  /** Sets a job aside while its attempt in flight ends (it is no longer pending). */
  drain(job: J): void;
  /** A job set aside by `drain`. */
  draining(id: string): J | undefined;
  /** Lets go of a job set aside (its attempt ended, or it was taken back). */
  undrain(id: string): boolean;
  /** Jobs pending. */
  size(): number;
  /** Every job, pending then draining (a shutdown stops them all). */
  all(): J[];
  clear(): void;
}
