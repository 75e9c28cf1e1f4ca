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

/** What the fault step uses: memory answers at once; a shared sandbox takes a use across replicas (promise). */
export interface FaultPort {
  take(call: FaultCall): Fault | undefined | Promise<Fault | undefined>;
}

/** A call as the fault store matches it (the tenant from the x-service-tenant header). */
export interface FaultCall {
  method: string;
  path: string;
  routeId?: string | undefined;
  routePath?: string | undefined;
  tenant?: string | undefined;
  /** The call is a stream connection carrying a cursor (only those take a cursor_expired fault). */
  cursorSent?: boolean;
}

export interface FaultStore extends FaultPort {
  add(fault: Omit<Fault, 'id'>): Fault;
  /** Takes one use of the first request fault matching the call, if any. */
  take(call: FaultCall): Fault | undefined;
  /**
   * Takes one use of a signature fault: the offset (ms) to add to the real time a webhook attempt is
   * signed with, 0 when none is armed.
   * @example const t = Math.floor((Date.now() + faults.takeSignatureSkew('wh_1')) / 1000);
   */
  takeSignatureSkew(receiverId: string): number;
  list(): Fault[];
  clear(): void;
}

/**
 * The armed faults. Expiry is wall-clock time (`now`), as clients wait in real time.
 * @example const faults = createFaultStore(); faults.add({ kind: 'internal', route: 'createConnection', remaining: 1 });
 */
export function createFaultStore(now: () => number = Date.now): FaultStore {
  let faults: Fault[] = [];
  let seq = 0;
  const isSignature = (f: Fault) => (SIGNATURE_FAULTS as readonly string[]).includes(f.kind);
  const live = (f: Fault) => f.expiresAt === undefined || f.expiresAt > now();
  const prune = () => {
    if (faults.some((f) => !live(f))) faults = faults.filter(live);
  };
  const use = (f: Fault) => {
    f.remaining -= 1;
    if (f.remaining <= 0) faults = faults.filter((x) => x !== f);
  };
  return {
    add(fault) {
      const f = { ...fault, id: `fault_${++seq}` };
      faults.push(f);
      return { ...f };
    },
    take(call) {
      if (faults.length === 0) return undefined;
      prune();
      const f = faults.find(
        (x) =>
          !isSignature(x) &&
          (!x.method || x.method.toUpperCase() === call.method) &&
          (!x.tenant || x.tenant === call.tenant) &&
          (!x.route || x.route === call.routeId || x.route === call.routePath || x.route === call.path) &&
          (x.kind !== 'cursor_expired' || call.cursorSent === true),
      );
      if (!f) return undefined;
      use(f);
      return { ...f };
    },
    takeSignatureSkew(receiverId) {
      if (faults.length === 0) return 0;
      prune();
      const f = faults.find((x) => isSignature(x) && (!x.webhookId || x.webhookId === receiverId));
      if (!f) return 0;
      use(f);
      const ms = (f.skewSeconds ?? DEFAULT_SIGNATURE_SKEW_SECONDS) * 1000;
      return f.kind === 'stale_signature' ? -ms : ms;
    },
    list: () => {
      prune();
      return faults.map((f) => ({ ...f }));
    },
    clear() {
      faults = [];
    },
  };
}
