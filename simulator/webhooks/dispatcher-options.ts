import { signWebhook } from '../contract/webhook-signature.ts';
import type { Clock } from '../lib/clock.ts';
import type { Scheduler } from '../lib/scheduler.ts';
import type { Delivery } from '../state/delivery-log.ts';
import type { DeliveryLogRepository } from '../state/ports/deliveries.ts';
import type { MaybePromise } from '../state/ports/maybe-promise.ts';
import { checkRetryPolicy, DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.ts';
import type { AbortTag, PostOutcome, SignedPost } from './signed-post.ts';

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
  log?: DeliveryLogRepository;
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
  /** A write to the delivery log failed (the delivery goes on); default: one process warning per dispatcher. */
  onStoreError?: (error: unknown) => void;
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
  readonly log: DeliveryLogRepository;
  /** Records a pending delivery and makes the first attempt at once. */
  deliver(receiver: WebhookReceiver, event: WebhookEvent): Delivery;
  /** Starts a new sequence of attempts on a logged delivery (after the one in flight, if any). Undefined when unknown. */
  redeliver(deliveryId: string, receiver: WebhookReceiver): MaybePromise<Delivery | undefined>;
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

/** A delivery the dispatcher is working on (queued, in flight or draining). */
export interface Job {
  record: Delivery;
  receiver: WebhookReceiver;
  attemptInSequence: number;
  cancelRetry?: () => void;
  abort?: (tag: AbortTag) => void;
  /** A redelivery asked for while an attempt was in flight. */
  restart: boolean;
  stopped?: 'queue_full' | 'shutdown';
}

/** The retry policy from the options (defaults for what is not given), checked. */
export function retryPolicyOf(opts: DispatcherOptions): RetryPolicy {
  return checkRetryPolicy({ ...DEFAULT_RETRY_POLICY, ...pick(opts) });
}

/**
 * The signer of attempts to one receiver.
 * @example const sign = signerFor(opts)('wh_1'); sign(body, secret);
 */
export function signerFor(opts: DispatcherOptions) {
  const baseSign = opts.sign ?? signWebhook;
  const realNow = opts.realNow ?? Date.now;
  // The signed timestamp is real time, never the sandbox clock: a receiver compares it with its own
  // clock, so a sandbox moved an hour ahead must not make every delivery look "from the future".
  return (receiverId: string): SignedPost['sign'] =>
    (body, secret) =>
      baseSign(body, secret, Math.max(0, Math.floor((realNow() + (opts.signatureSkewMs?.(receiverId) ?? 0)) / 1000)));
}

function pick(o: Partial<RetryPolicy>): Partial<RetryPolicy> {
  const out: Partial<RetryPolicy> = {};
  for (const k of ['maxAttempts', 'baseDelayMs', 'jitterRatio', 'maxDelayMs'] as const)
    if (o[k] !== undefined) out[k] = o[k];
  return out;
}
