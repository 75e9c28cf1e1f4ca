// Start options: each one a choice the interface leaves open, so the runs can switch between legal
// deployments of the same team without a second implementation.
export interface CottonwoodOptions {
  /** Calls per window per client, tenant and environment (a fixed window, as elysia-rate-limit counts). */
  rateLimit?: number;
  windowMs?: number;
  tokenTtlSeconds?: number;
  /** Audit page size when `limit` is absent, and the clamp of a larger one. */
  auditDefaultLimit?: number;
  auditMaxLimit?: number;
  /** Hex digests and an all-zero genesis link instead of base64url and `null`. */
  auditHex?: boolean;
  /** First retry delay of a failed delivery (BullMQ `backoff: { type: 'exponential', delay }`). */
  retryDelayMs?: number;
  /** A job's delay before its first attempt (BullMQ `delay`): deliveries leave after the answer. */
  deliveryDelayMs?: number;
  /** Stream messages relayed from an outbox this long after the change (0: at once). */
  streamRelayMs?: number;
  /** Service-Version mandatory on every API call (400 without it) instead of defaulting to the current one. */
  requireServiceVersion?: boolean;
  /** Ends each stream response after this long, as a serverless function's timeout would (0: never). */
  streamMaxMs?: number;
  /** Client authentication the token endpoint accepts: both, or only `client_secret_post` (better-auth's form). */
  tokenAuth?: 'both' | 'post';
  /** Delivery log page size (newest first, `nextCursor` to follow). */
  deliveryPageSize?: number;
  /** Also record refused modifying calls of a tenant in its audit log (security teams ask for it). */
  auditRefusals?: boolean;
  /** A new connection turns from pending to active after this long, as the provider confirms (0: stays pending). */
  activateAfterMs?: number;
  /** Audit log order and how its next page is offered (a body cursor, or an RFC 8288 Link header only). */
  auditOldestFirst?: boolean;
  auditPaging?: 'cursor' | 'link';
  /** Stream messages without an `event:` line (every one a default "message", its kind in the data). */
  streamUnnamed?: boolean;
  /** Entry hash over `prevHash|seq|at|action|resource.id` instead of the entry's RFC 8785 JSON. */
  auditHashPipe?: boolean;
  /** Sign the proof object's RFC 8785 JSON (without signature and key) instead of the head hash alone. */
  auditSignProof?: boolean;
  /** Public routes and unknown paths go uncounted (no rate-limit headers there). */
  publicUncounted?: boolean;
}

const DEFAULTS: Required<CottonwoodOptions> = {
  rateLimit: 600,
  windowMs: 60_000,
  tokenTtlSeconds: 900,
  auditDefaultLimit: 25,
  auditMaxLimit: 100,
  auditHex: false,
  retryDelayMs: 1000,
  deliveryDelayMs: 0,
  streamRelayMs: 0,
  requireServiceVersion: false,
  streamMaxMs: 0,
  tokenAuth: 'both',
  deliveryPageSize: 50,
  auditRefusals: false,
  activateAfterMs: 0,
  auditOldestFirst: false,
  auditPaging: 'cursor',
  streamUnnamed: false,
  auditHashPipe: false,
  auditSignProof: false,
  publicUncounted: false,
};

/** The options with every unset one at the team's default. */
export function withDefaults(o: CottonwoodOptions): Required<CottonwoodOptions> {
  const set = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  return { ...DEFAULTS, ...set };
}
