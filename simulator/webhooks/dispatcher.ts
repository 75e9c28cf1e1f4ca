import { WEBHOOK_DEFAULTS } from '../contract/simulator-defaults.ts';
import { createClock, type Clock } from '../lib/clock.ts';
import { createDeliveryLog, type Delivery, type DeliveryLog } from '../state/delivery-log.ts';
import { newId } from '../lib/ids.ts';
import { realScheduler, type Scheduler } from '../lib/scheduler.ts';
import { checkRetryPolicy, DEFAULT_RETRY_POLICY, retryDelayMs, type RetryPolicy } from './retry-policy.ts';
import { postSigned, type AbortTag, type PostOutcome, type SignedPost } from './signed-post.ts';
import { signWebhook } from '../contract/webhook-signature.ts';

/** Where and how to deliver: the receiver as registered (the secret never enters the log). */
export interface WebhookReceiver {
  id: string;
  url: string;
  secret: string;
  tenant: string;
}

export interface WebhookEvent {
  id: string;
  type: string;
  payload: unknown;
  /** When the event happened (ISO 8601); default: now. */
  at?: string;
}

export interface DispatcherOptions extends Partial<RetryPolicy> {
  log?: DeliveryLog;
  fetch?: typeof fetch;
  clock?: Clock;
  scheduler?: Scheduler;
  random?: () => number;
  newId?: () => string;
  signatureHeader?: string;
  /** Signs each attempt (default signWebhook); see SignedPost.sign. */
  sign?: SignedPost['sign'];
  /** Real time for signature timestamps (default Date.now): receivers check them against their own clock. */
  realNow?: () => number;
  /** Offset (ms) added to the signed time of an attempt to this receiver: the stale/future signature faults. */
  signatureSkewMs?: (receiverId: string) => number;
  timeoutMs?: number;
  /** Deliveries pending at once; beyond it the oldest pending one fails with `queue_full`. */
  maxQueue?: number;
  /** A delivery failed for good (attempts exhausted or queue_full): e.g. publish webhook.delivery_failed. */
  onFailure?: (delivery: Delivery) => void;
  onSuccess?: (delivery: Delivery) => void;
  /** Several replicas share the deliveries (shared sandbox): who makes each attempt, and how its outcome reaches all. */
  coordinator?: AttemptCoordinator;
}

/**
 * Exactly one replica makes each attempt: it takes a lease on (delivery, sequence, attempt), posts, and
 * shares the outcome; every replica (itself too) then applies it with `applyOutcome` and schedules the
 * next attempt. A replica that lost the lease looks again when the lease ends, so an attempt whose
 * maker died is taken over; one that never started is made by whoever is due first.
 */
export interface AttemptCoordinator {
  /** True when this replica won the attempt. */
  claim(deliveryId: string, sequence: number, attempt: number): Promise<boolean>;
  /** Sends the outcome to every replica (each calls `applyOutcome`). */
  share(deliveryId: string, attempt: number, outcome: PostOutcome, retryDelayMs: number): void;
  /** How long a lease lasts (longer than an attempt's timeout). */
  leaseMs: number;
}

export interface Dispatcher {
  readonly log: DeliveryLog;
  /** Records a pending delivery and makes the first attempt at once. */
  deliver(receiver: WebhookReceiver, event: WebhookEvent): Delivery;
  /** Starts a new sequence of attempts on a logged delivery (after the one in flight, if any). Undefined when unknown. */
  redeliver(deliveryId: string, receiver: WebhookReceiver): Delivery | undefined;
  /**
   * Takes up a delivery left pending by an earlier process (shutdown or kill -9): attempts it at once,
   * continuing its sequence (attempts cut by the shutdown do not count); fails it when none are left.
   */
  resume(record: Delivery, receiver: WebhookReceiver): Delivery;
  /** Applies an attempt's outcome shared by the replica that made it (coordinated dispatchers only). */
  applyOutcome(deliveryId: string, attempt: number, outcome: PostOutcome, retryDelayMs: number): void;
  /** Deliveries pending (in flight or waiting for a retry). */
  pending(): number;
  /** Resolves once no attempt is in flight (scheduled retries may remain). */
  settled(): Promise<void>;
  /** Cancels retries and aborts attempts in flight (recorded as `shutdown`); those deliveries stay pending. */
  close(): Promise<void>;
}

interface Job {
  record: Delivery;
  receiver: WebhookReceiver;
  attemptInSequence: number;
  cancelRetry?: () => void;
  abort?: (tag: AbortTag) => void;
  /** A redelivery asked for while an attempt was in flight. */
  restart: boolean;
  stopped?: 'queue_full' | 'shutdown';
}

/**
 * The webhook delivery engine: signed POSTs, per-attempt timeouts, exponential backoff with jitter,
 * a bounded queue and a delivery log recording every attempt.
 * @example const d = createDispatcher({ onFailure: (x) => feeds.publish(`tenant:${x.tenant}`, 'webhook.delivery_failed', x) });
 *          d.deliver({ id: 'wh_1', url, secret, tenant }, { id: 'evt_1', type: 'connection.created', payload });
 */
export function createDispatcher(opts: DispatcherOptions = {}): Dispatcher {
  const log = opts.log ?? createDeliveryLog();
  const clock = opts.clock ?? createClock();
  const scheduler = opts.scheduler ?? realScheduler;
  const fetchImpl = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const random = opts.random ?? Math.random;
  const makeId = opts.newId ?? (() => newId('dlv'));
  const policy = checkRetryPolicy({ ...DEFAULT_RETRY_POLICY, ...pick(opts) });
  const signatureHeader = opts.signatureHeader ?? WEBHOOK_DEFAULTS.signatureHeader;
  const baseSign = opts.sign ?? signWebhook;
  const realNow = opts.realNow ?? Date.now;
  // The signed timestamp is real time, never the sandbox clock: a receiver compares it with its own
  // clock, so a sandbox moved an hour ahead must not make every delivery look "from the future".
  const signFor =
    (receiverId: string): SignedPost['sign'] =>
    (body, secret) =>
      baseSign(body, secret, Math.max(0, Math.floor((realNow() + (opts.signatureSkewMs?.(receiverId) ?? 0)) / 1000)));
  const timeoutMs = opts.timeoutMs ?? WEBHOOK_DEFAULTS.timeoutMs;
  const maxQueue = opts.maxQueue ?? WEBHOOK_DEFAULTS.maxQueue;
  if (!Number.isSafeInteger(maxQueue) || maxQueue < 1)
    throw new RangeError(`maxQueue must be a positive integer, not ${maxQueue}`);
  const queue = new Map<string, Job>();
  /** Evicted while an attempt was in flight: out of the queue, waiting for that attempt to end. */
  const draining = new Map<string, Job>();
  const inFlight = new Set<Promise<void>>();
  let closed = false;

  const iso = () => new Date(clock.now()).toISOString();
  /** Replaces the job's record (records are never mutated) and stores it; `nextAttemptAt` and `error` only survive when given. */
  const save = (job: Job, patch: Partial<Delivery>) => {
    const { nextAttemptAt: _next, error: _error, ...rest } = job.record;
    job.record = { ...rest, ...patch, updatedAt: iso() };
    log.update(job.record);
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

  const coordinator = opts.coordinator;
  const attempt = (job: Job) => {
    job.cancelRetry = undefined;
    if (!coordinator) return post(job);
    const n = job.record.attempts.length + 1;
    const sequence = job.record.sequences;
    const current = () =>
      !closed && !job.stopped && queue.get(job.record.id) === job && job.record.attempts.length + 1 === n;
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
    draining.delete(job.record.id);
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
    deliver(receiver, event) {
      if (closed) throw new Error('the dispatcher is closed');
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
      log.insert(record);
      const job: Job = { record, receiver, attemptInSequence: 0, restart: false };
      enqueue(job);
      attempt(job);
      return job.record;
    },
    redeliver(deliveryId, receiver) {
      if (closed) throw new Error('the dispatcher is closed');
      const live = queue.get(deliveryId) ?? draining.get(deliveryId);
      const record = live?.record ?? log.get(deliveryId);
      if (!record) return undefined;
      if (receiver.id !== record.receiverId)
        throw new Error(`delivery ${deliveryId} does not belong to receiver ${receiver.id}`);
      if (live && draining.has(deliveryId)) {
        // Its evicted attempt is still ending: take it back, the new sequence follows that attempt.
        draining.delete(deliveryId);
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
    },
    resume(record, receiver) {
      if (closed) throw new Error('the dispatcher is closed');
      const live = queue.get(record.id);
      if (live) return live.record;
      const counted = record.attempts.filter((a) => a.sequence === record.sequences && a.error !== 'shutdown');
      const job: Job = { record, receiver, attemptInSequence: counted.length, restart: false };
      enqueue(job);
      if (counted.length >= policy.maxAttempts) finishFor(job, 'failed', counted.at(-1)?.error ?? 'shutdown');
      else attempt(job);
      return job.record;
    },
    applyOutcome(deliveryId, n, outcome, delay) {
      const job = queue.get(deliveryId) ?? draining.get(deliveryId);
      if (!job || job.record.attempts.length + 1 !== n) return; // not ours, or applied already
      job.cancelRetry?.();
      job.cancelRetry = undefined;
      // Only the maker counted the attempt; every replica counts it now.
      const inSequence = job.record.attempts.filter((a) => a.sequence === job.record.sequences).length;
      job.attemptInSequence = inSequence + 1;
      settle(job, n, outcome, delay);
    },
    pending: () => queue.size,
    settled,
    async close() {
      closed = true;
      for (const job of [...queue.values(), ...draining.values()]) {
        job.stopped = 'shutdown';
        job.cancelRetry?.();
        job.abort?.('shutdown');
      }
      await settled();
      queue.clear();
      draining.clear();
    },
  };
}

function pick(o: Partial<RetryPolicy>): Partial<RetryPolicy> {
  const out: Partial<RetryPolicy> = {};
  for (const k of ['maxAttempts', 'baseDelayMs', 'jitterRatio', 'maxDelayMs'] as const)
    if (o[k] !== undefined) out[k] = o[k];
  return out;
}
