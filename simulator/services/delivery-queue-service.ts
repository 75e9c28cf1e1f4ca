import type { Clock } from '../lib/clock.ts';
import type { Delivery } from '../state/delivery-log.ts';
import type { DeliveryLogRepository } from '../state/ports/deliveries.ts';
import type { DeliveryQueueRepository, QueuedDelivery } from '../state/ports/delivery-queue.ts';
import type { MaybePromise } from '../state/ports/maybe-promise.ts';

/**
 * Issues a write to the log without waiting for it: records are replaced whole, so a write that failed
 * (a store across the network, a full disk) is healed by the record's next one, and the delivery goes on.
 * A failure, thrown at once or answered later, goes to `failed`: never an unhandled rejection, which would
 * end the process from a retry timer nobody awaits.
 * @example written(() => log.insert(record), (e) => console.warn(e));
 */
export function written(write: () => MaybePromise<unknown>, failed: (error: unknown) => void): void {
  try {
    const pending = write();
    if (pending instanceof Promise) pending.catch(failed);
  } catch (error) {
    failed(error);
  }
}

/**
 * The default report of a failed delivery-log write: one process warning per queue (a dead store fails
 * every write; one line says so), naming the cause but never a record (bodies and URLs stay out of logs).
 * @example const failed = warnOnce(); written(() => log.update(r), failed);
 */
export function warnOnce(): (error: unknown) => void {
  let warned = false;
  return (error) => {
    if (warned) return;
    warned = true;
    const cause = error instanceof Error ? error.message : String(error);
    process.emitWarning(`a webhook delivery-log write failed (deliveries go on; the log may lag): ${cause}`, {
      code: 'NCS_DELIVERY_LOG_WRITE',
    });
  };
}

export interface DeliveryQueueDeps<J extends QueuedDelivery> {
  repository: DeliveryQueueRepository<J>;
  log: DeliveryLogRepository;
  clock: Clock;
  /** Deliveries pending at most; a new one beyond it evicts the oldest (failed as `queue_full`). */
  maxQueue: number;
  onSuccess?: ((d: Delivery) => void) | undefined;
  onFailure?: ((d: Delivery) => void) | undefined;
  /** A write to the log failed (default: one process warning). */
  onStoreError?: ((error: unknown) => void) | undefined;
}

/**
 * The rules of the dispatcher's bounded queue over its repository: a new delivery beyond `maxQueue`
 * evicts the oldest pending one (failed as `queue_full` at once, or once its attempt in flight ends);
 * every change of a job's record is a new record stamped with the clock and written to the delivery log;
 * finishing a delivery records its status and tells the success or failure callback.
 * @example const queue = createDeliveryQueue({ repository: createDeliveryQueueStore<Job>(), log, clock, maxQueue: 1000 });
 */
export function createDeliveryQueue<J extends QueuedDelivery>(deps: DeliveryQueueDeps<J>) {
  const { repository: jobs, log, clock, maxQueue } = deps;
  if (!Number.isSafeInteger(maxQueue) || maxQueue < 1)
    throw new RangeError(`maxQueue must be a positive integer, not ${maxQueue}`);
  const iso = () => new Date(clock.now()).toISOString();
  const storeFailed = deps.onStoreError ?? warnOnce();
  /** Replaces the job's record (records are never mutated) and stores it; `nextAttemptAt` and `error` only survive when given. */
  const save = (job: J, patch: Partial<Delivery>) => {
    const { nextAttemptAt: _next, error: _error, ...rest } = job.record;
    job.record = { ...rest, ...patch, updatedAt: iso() };
    const record = job.record;
    written(() => log.update(record), storeFailed);
  };
  const notify = (fn: ((d: Delivery) => void) | undefined, d: Delivery) => {
    try {
      fn?.(d);
    } catch {
      // A failing callback must not stop the engine.
    }
  };
  /** Ends a delivery: out of the queue, its status recorded, the callback told. */
  const finishFor = (job: J, status: 'succeeded' | 'failed', error?: string) => {
    jobs.remove(job.record.id);
    save(job, { status, ...(error ? { error } : {}) });
    notify(status === 'succeeded' ? deps.onSuccess : deps.onFailure, job.record);
  };
  /** Queues a job, evicting the oldest pending one when the queue is full. */
  const enqueue = (job: J) => {
    const oldest = jobs.size() >= maxQueue ? jobs.oldest() : undefined;
    if (oldest) {
      oldest.stopped = 'queue_full';
      oldest.cancelRetry?.();
      if (oldest.abort) {
        // Its attempt in flight ends first; settling it then fails it as queue_full.
        jobs.drain(oldest);
        oldest.abort('queue_full');
      } else finishFor(oldest, 'failed', 'queue_full');
    }
    jobs.add(job);
  };
  return { jobs, iso, save, finishFor, enqueue, storeFailed };
}

export type DeliveryQueue<J extends QueuedDelivery> = ReturnType<typeof createDeliveryQueue<J>>;
