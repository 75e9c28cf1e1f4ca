import { written } from '../services/delivery-queue-service.ts';
import type { Delivery } from '../state/delivery-log.ts';
import { andThen } from '../state/ports/maybe-promise.ts';
import { createAttemptEngine } from './dispatcher-engine.ts';
import type { Dispatcher, DispatcherOptions, Job } from './dispatcher-options.ts';

// Types and option resolution live in dispatcher-options.ts, the attempt engine in dispatcher-engine.ts.
export type {
  AttemptCoordinator,
  Dispatcher,
  DispatcherOptions,
  WebhookEvent,
  WebhookReceiver,
} from './dispatcher-options.ts';

/**
 * The webhook delivery engine: signed POSTs, per-attempt timeouts, exponential backoff with jitter,
 * a bounded queue and a delivery log recording every attempt.
 * @example const d = createDispatcher({ onFailure: (x) => feeds.publish(`tenant:${x.tenant}`, 'webhook.delivery_failed', x) });
 *          d.deliver({ id: 'wh_1', url, secret, tenant }, { id: 'evt_1', type: 'connection.created', payload });
 */
export function createDispatcher(opts: DispatcherOptions = {}): Dispatcher {
  const {
    log,
    policy,
    makeId,
    jobs,
    flags,
    iso,
    finishFor,
    enqueue,
    attempt,
    settle,
    startSequence,
    settled,
    storeFailed,
  } = createAttemptEngine(opts);
  return {
    log,
    deliver(receiver, event) {
      if (flags.closed) throw new Error('the dispatcher is closed');
      const now = iso();
      const body = JSON.stringify({
        id: event.id,
        type: event.type,
        createdAt: event.at ?? now,
        tenant: receiver.tenant,
        data: event.payload ?? null,
      });
      const record: Delivery = {
        id: makeId(),
        receiverId: receiver.id,
        tenant: receiver.tenant,
        eventId: event.id,
        eventType: event.type,
        url: receiver.url,
        status: 'pending',
        attempts: [],
        sequences: 1,
        createdAt: now,
        updatedAt: now,
        body,
      };
      written(() => log.insert(record), storeFailed);
      const job: Job = { record, receiver, attemptInSequence: 0, restart: false };
      enqueue(job);
      attempt(job);
      return job.record;
    },
    redeliver(deliveryId, receiver) {
      if (flags.closed) throw new Error('the dispatcher is closed');
      const live = jobs.pending(deliveryId) ?? jobs.draining(deliveryId);
      // A delivery the dispatcher still works on is its own record; any other is read from the log.
      return andThen(live?.record ?? log.get(deliveryId), (record) => {
        if (!record) return undefined;
        if (receiver.id !== record.receiverId)
          throw new Error(`delivery ${deliveryId} does not belong to receiver ${receiver.id}`);
        if (live && jobs.undrain(deliveryId)) {
          // Its evicted attempt is still ending: take it back, the new sequence follows that attempt.
          live.stopped = undefined;
          live.receiver = receiver;
          live.restart = true;
          enqueue(live);
          return live.record;
        }
        if (live) {
          live.receiver = receiver;
          if (live.abort) live.restart = true;
          else {
            live.cancelRetry?.();
            startSequence(live);
          }
          return live.record;
        }
        const job: Job = { record: { ...record, url: receiver.url }, receiver, attemptInSequence: 0, restart: false };
        enqueue(job);
        startSequence(job);
        return job.record;
      });
    },
    resume(record, receiver) {
      if (flags.closed) throw new Error('the dispatcher is closed');
      const live = jobs.pending(record.id);
      if (live) return live.record;
      const counted = record.attempts.filter((a) => a.sequence === record.sequences && a.error !== 'shutdown');
      const job: Job = { record, receiver, attemptInSequence: counted.length, restart: false };
      enqueue(job);
      if (counted.length >= policy.maxAttempts) finishFor(job, 'failed', counted.at(-1)?.error ?? 'shutdown');
      else attempt(job);
      return job.record;
    },
    applyOutcome(deliveryId, n, outcome, delay) {
      const job = jobs.pending(deliveryId) ?? jobs.draining(deliveryId);
      if (!job || job.record.attempts.length + 1 !== n) return; // not ours, or applied already
      job.cancelRetry?.();
      job.cancelRetry = undefined;
      // Only the maker counted the attempt; every replica counts it now.
      const inSequence = job.record.attempts.filter((a) => a.sequence === job.record.sequences).length;
      job.attemptInSequence = inSequence + 1;
      settle(job, n, outcome, delay);
    },
    pending: () => jobs.size(),
    settled,
    async close() {
      flags.closed = true;
      for (const job of jobs.all()) {
        job.stopped = 'shutdown';
        job.cancelRetry?.();
        job.abort?.('shutdown');
      }
      await settled();
      jobs.clear();
    },
  };
}
