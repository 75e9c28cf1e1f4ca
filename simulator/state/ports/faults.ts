import type { MaybePromise } from './maybe-promise.ts';

/** Faults of webhook deliveries: the next signatures are dated in the past or the future. */
export const SIGNATURE_FAULTS = ['stale_signature', 'future_signature'] as const;
/** Faults of the status stream: applied to a stream when it opens (see README "Client verdicts"). */
export const STREAM_FAULTS = ['stream_cut', 'stream_stall', 'stream_restart', 'cursor_expired'] as const;
/** Faults of a single call: answered at once, or after the call ran (commit_then_fail). */
export const CALL_FAULTS = ['internal', 'rate_limited', 'latency', 'unavailable', 'commit_then_fail'] as const;
/** How far a signature fault moves the signed time by default: twice the interface's 300 s window. */
export const DEFAULT_SIGNATURE_SKEW_SECONDS = 600;

export type FaultKind =
  | (typeof CALL_FAULTS)[number]
  | (typeof STREAM_FAULTS)[number]
  | (typeof SIGNATURE_FAULTS)[number];
/** What a commit_then_fail fault answers after the write was committed. */
export type FailWith = 'internal' | 'unavailable' | 'drop' | 'timeout';

/**
 * A fault armed from the control plane for the next `remaining` matching calls (or, with `expiresAt`,
 * every matching call until then), or (signature faults) the next `remaining` webhook delivery attempts.
 */
export interface Fault {
  id: string;
  kind: FaultKind;
  /** HTTP method to match (any when absent). */
  method?: string;
  /** Route to match: an operationId (createConnection), a route path (/api/public/v1/connections/{connectionId}) or a concrete path. Any when absent. */
  route?: string;
  /** Only calls naming this tenant in x-service-tenant (any when absent). */
  tenant?: string;
  /** Uses left; Infinity (null in JSON) for a fault limited by `expiresAt` only. */
  remaining: number;
  /** Wall-clock ms after which the fault is gone, whatever is left of `remaining`. */
  expiresAt?: number;
  retryAfterSeconds?: number;
  latencyMs?: number;
  /** commit_then_fail: the answer after the commit (default internal = 500). */
  failWith?: FailWith;
  /** commit_then_fail with failWith timeout: how long the answer is held before the connection drops (default 10 000 ms). */
  holdMs?: number;
  /** Stream faults: how many numbered messages pass before the fault acts (default 1). */
  afterMessages?: number;
  /** stream_stall: how long the stream stays silent (no messages, no heartbeats) before it ends (default 30 000 ms). */
  stallMs?: number;
  /** stream_restart: how long the stream route answers 503 after the restart (default 2 000 ms). */
  downMs?: number;
  /** How far a signature fault moves the signed time (seconds; default 600). */
  skewSeconds?: number;
  /** Signature faults: only deliveries to this receiver (any when absent). */
  webhookId?: string;
}

/** A call as the fault service matches it (the tenant from the x-service-tenant header). */
export interface FaultCall {
  method: string;
  path: string;
  routeId?: string | undefined;
  routePath?: string | undefined;
  tenant?: string | undefined;
  /** The call is a stream connection carrying a cursor (only those take a cursor_expired fault). */
  cursorSent?: boolean;
}

/** What the fault step uses: memory answers at once; a shared sandbox takes a use across replicas (promise). */
export interface FaultPort {
  take(call: FaultCall): MaybePromise<Fault | undefined>;
}

/**
 * Where armed faults are kept, oldest first. It knows no clock, matching or use counting: those are the
 * fault service's (services/fault-service.ts). Every method may answer with a promise; memory answers at once.
 * @example andThen(repository.all(), (faults) => faults.length)
 */
export interface FaultRepository {
  /** Keeps a fault as the newest (the repository takes the object given). */
  insert(fault: Fault): MaybePromise<void>;
  /** The armed faults, oldest first: read them, never change them (memory hands out its own array). */
  all(): MaybePromise<readonly Fault[]>;
  /** Sets the uses left of a fault (no-op for an unknown id). */
  setRemaining(id: string, remaining: number): MaybePromise<void>;
  remove(id: string): MaybePromise<void>;
  clear(): MaybePromise<void>;
}
