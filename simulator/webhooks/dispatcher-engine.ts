import { WEBHOOK_DEFAULTS } from '../contract/simulator-defaults.ts';
import { createClock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { realScheduler } from '../lib/scheduler.ts';
import { createDeliveryQueue } from '../services/delivery-queue-service.ts';
import { createDeliveryLog } from '../state/delivery-log.ts';
import { createDeliveryQueueStore } from '../state/delivery-queue-store.ts';
import { type DispatcherOptions, type Job, retryPolicyOf, signerFor } from './dispatcher-options.ts';
import { retryDelayMs } from './retry-policy.ts';
import { type PostOutcome, postSigned } from './signed-post.ts';

/**
 * The attempt engine behind createDispatcher: the bounded queue, attempts (coordinated or not), settling
 * each outcome and scheduling retries.
 * @example const engine = createAttemptEngine(opts); engine.enqueue(job); engine.attempt(job);
 */
export function createAttemptEngine(opts: DispatcherOptions) {
  const log = opts.log ?? createDeliveryLog();
  const clock = opts.clock ?? createClock();
  const scheduler = opts.scheduler ?? realScheduler;
  const fetchImpl = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const random = opts.random ?? Math.random;
  const makeId = opts.newId ?? (() => newId('dlv'));
  const policy = retryPolicyOf(opts);
  const signatureHeader = opts.signatureHeader ?? WEBHOOK_DEFAULTS.signatureHeader;
  const signFor = signerFor(opts);
  const timeoutMs = opts.timeoutMs ?? WEBHOOK_DEFAULTS.timeoutMs;
  // The bounded queue's rules (eviction, finishing, record stamps) over the jobs of this process.
  const { jobs, iso, save, finishFor, enqueue, storeFailed } = createDeliveryQueue<Job>({
    repository: createDeliveryQueueStore<Job>(),
    log,
    clock,
    maxQueue: opts.maxQueue ?? WEBHOOK_DEFAULTS.maxQueue,
    onSuccess: opts.onSuccess,
    onFailure: opts.onFailure,
    onStoreError: opts.onStoreError,
  });
  const inFlight = new Set<Promise<void>>();
  // Set by close(): no attempt starts after it.
  const flags = { closed: false };

  const coordinator = opts.coordinator;
  const attempt = (job: Job) => {
    job.cancelRetry = undefined;
    if (!coordinator) return post(job);
    const n = job.record.attempts.length + 1;
    const sequence = job.record.sequences;
    const current = () =>
      !flags.closed && !job.stopped && jobs.pending(job.record.id) === job && job.record.attempts.length + 1 === n;
    coordinator.claim(job.record.id, sequence, n).then(
      (won) => {
        if (!current()) return;
        if (won) post(job);
        // Another replica makes it; look again when its lease ends, in case it died meanwhile.
        else job.cancelRetry = scheduler.schedule(() => attempt(job), coordinator.leaseMs);
      },
      () => {
        if (current()) job.cancelRetry = scheduler.schedule(() => attempt(job), 1000);
      },
    );
  };

  const post = (job: Job) => {
    job.attemptInSequence++;
    const n = job.record.attempts.length + 1;
    const signed = postSigned({
      url: job.receiver.url,
      body: job.record.body,
      secret: job.receiver.secret,
      signatureHeader,
      timeoutMs,
      fetch: fetchImpl,
      clock,
      scheduler,
      sign: signFor(job.receiver.id),
      headers: {
        [WEBHOOK_DEFAULTS.eventHeader]: job.record.eventType,
        [WEBHOOK_DEFAULTS.deliveryHeader]: job.record.id,
        [WEBHOOK_DEFAULTS.attemptHeader]: String(n),
      },
    });
    job.abort = signed.abort;
    const run = signed.done.then((outcome) => {
      if (!coordinator) return settle(job, n, outcome);
      job.abort = undefined;
      // A shutdown abandons the attempt: its lease runs out and another replica makes it.
      if (job.stopped === 'shutdown') return;
      coordinator.share(job.record.id, n, outcome, retryDelayMs(job.attemptInSequence, policy, random));
    });
    inFlight.add(run);
    void run.finally(() => inFlight.delete(run));
  };

  const settle = (job: Job, n: number, o: PostOutcome, sharedDelayMs?: number) => {
    job.abort = undefined;
    jobs.undrain(job.record.id);
    const entry = {
      n,
      sequence: job.record.sequences,
      at: new Date(o.startedAt).toISOString(),
      ...(o.status !== undefined ? { status: o.status } : {}),
      durationMs: o.durationMs,
      ...(o.error ? { error: o.error } : {}),
      signatureHeader,
      signature: o.signature,
    };
    save(job, { attempts: [...job.record.attempts, entry] });
    if (job.stopped === 'shutdown') return;
    if (job.stopped === 'queue_full') return finishFor(job, 'failed', 'queue_full');
    if (job.restart) return startSequence(job);
    if (o.ok) return finishFor(job, 'succeeded');
    if (job.attemptInSequence >= policy.maxAttempts) return finishFor(job, 'failed', o.error);
    const delay = sharedDelayMs ?? retryDelayMs(job.attemptInSequence, policy, random);
    save(job, { nextAttemptAt: new Date(clock.now() + delay).toISOString() });
    job.cancelRetry = scheduler.schedule(() => attempt(job), delay);
  };

  const startSequence = (job: Job) => {
    job.restart = false;
    job.attemptInSequence = 0;
    save(job, { status: 'pending', sequences: job.record.sequences + 1 });
    attempt(job);
  };

  const settled = async () => {
    while (inFlight.size) await Promise.allSettled([...inFlight]);
  };
  return {
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
  };
}
