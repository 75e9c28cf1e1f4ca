import type { Clock } from '../lib/clock.ts';
import type { Delivery } from '../state/delivery-log.ts';
import type { DeliveryLogRepository } from '../state/ports/deliveries.ts';
import type { MaybePromise } from '../state/ports/maybe-promise.ts';
import type { DispatcherOptions, Job } from './dispatcher-options.ts';

/**
 * The dispatcher's bounded queue of jobs and their records: saving, finishing (with the callbacks) and
 * evicting the oldest pending delivery when full.
 * @example const { enqueue, finishFor } = createJobQueue(opts, log, clock, 1000);
 */
/**
 * Issues a write to the log without waiting for it: records are replaced whole, so a write that failed
 * (a store across the network) is healed by the record's next one, and the delivery goes on.
 */
export function written(write: MaybePromise<unknown>): void {
  if (write instanceof Promise) write.catch(() => {});
}

export function createJobQueue(opts: DispatcherOptions, log: DeliveryLogRepository, clock: Clock, maxQueue: number) {
  const queue = new Map<string, Job>();
  /** Evicted while an attempt was in flight: out of the queue, waiting for that attempt to end. */
  const draining = new Map<string, Job>();
  const iso = () => new Date(clock.now()).toISOString();
  /** Replaces the job's record (records are never mutated) and stores it; `nextAttemptAt` and `error` only survive when given. */
  const save = (job: Job, patch: Partial<Delivery>) => {
    const { nextAttemptAt: _next, error: _error, ...rest } = job.record;
    job.record = { ...rest, ...patch, updatedAt: iso() };
    written(log.update(job.record));
  };
  const notify = (fn: ((d: Delivery) => void) | undefined, d: Delivery) => {
    try {
      fn?.(d);
    } catch {
      // A failing callback must not stop the engine.
    }
  };
  const finishFor = (job: Job, status: 'succeeded' | 'failed', error?: string) => {
    queue.delete(job.record.id);
    save(job, { status, ...(error ? { error } : {}) });
    notify(status === 'succeeded' ? opts.onSuccess : opts.onFailure, job.record);
  };

  const enqueue = (job: Job) => {
    if (queue.size >= maxQueue) {
      const [, oldest] = queue.entries().next().value as [string, Job];
      oldest.stopped = 'queue_full';
      oldest.cancelRetry?.();
      if (oldest.abort) {
        queue.delete(oldest.record.id);
        draining.set(oldest.record.id, oldest);
        oldest.abort('queue_full');
      } else finishFor(oldest, 'failed', 'queue_full');
    }
    queue.set(job.record.id, job);
  };
  return { queue, draining, iso, save, finishFor, enqueue };
}
