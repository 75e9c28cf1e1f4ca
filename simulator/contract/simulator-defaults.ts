/**
 * The simulator's own numbers where the interface says "not shown": stream retention and pacing,
 * webhook delivery policy, audit-log paging. Each is documented in README ("Where the interface is
 * silent") and each is an option of the module that uses it; read them from here, never restate them.
 */
export const STREAM_DEFAULTS = {
  /** Messages kept per feed for resumption. */
  retention: 10_000,
  /** Sent as `retry:` at the start of every stream. */
  retryMs: 3_000,
  /** A `: heartbeat` comment this often. */
  heartbeatMs: 15_000,
  /** A consumer this many messages behind while its connection is blocked is disconnected. */
  maxLagMessages: 1_000,
  /** Without a drain signal from the transport: this many refused writes in a row end the stream. */
  maxRefusedWrites: 256,
} as const;

export const WEBHOOK_DEFAULTS = {
  /** Header carrying `t=<unix-seconds>,v1=<hex>`; the interface does not name it. */
  signatureHeader: 'NCS-Signature',
  eventHeader: 'NCS-Event',
  deliveryHeader: 'NCS-Delivery',
  attemptHeader: 'NCS-Attempt',
  /** Per attempt; longer counts as a failed attempt (`timeout`). */
  timeoutMs: 5_000,
  /** Attempts per sequence (the first one included). */
  maxAttempts: 5,
  /** Wait before retry n is baseDelayMs * 2^(n-1), plus up to jitterRatio of that, at most maxDelayMs. */
  baseDelayMs: 1_000,
  jitterRatio: 0.2,
  maxDelayMs: 60_000,
  /** Deliveries pending at once; when full the oldest pending one fails with `queue_full`. */
  maxQueue: 1_000,
  /** Deliveries kept in the log per receiver (oldest dropped first). */
  maxDeliveriesPerReceiver: 500,
  /**
   * Receivers per tenant (`webhooks.maxReceiversPerTenant`): each event is signed and queued once per
   * subscribed receiver, so without a bound one tenant could make every event cost seconds.
   */
  maxReceiversPerTenant: 100,
  /** Delivery-log listing without a limit; the largest limit is maxDeliveriesPerReceiver. */
  defaultListLimit: 50,
} as const;

export const AUDIT_DEFAULTS = {
  /** GET /audit-log without ?limit. */
  defaultLimit: 50,
  /** Largest ?limit accepted. */
  maxLimit: 500,
  /** Entries kept per tenant; older ones are dropped, the proof's anchor keeps the rest verifiable. */
  maxEntriesPerTenant: 100_000,
} as const;
