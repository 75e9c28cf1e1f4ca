/** Faults of webhook deliveries: the next signatures are dated in the past or the future. */
export const SIGNATURE_FAULTS = ['stale_signature', 'future_signature'] as const;
/** How far a signature fault moves the signed time by default: twice the interface's 300 s window. */
export const DEFAULT_SIGNATURE_SKEW_SECONDS = 600;

/**
 * A fault armed from the control plane for the next `remaining` matching calls, or (signature
 * faults) the next `remaining` webhook delivery attempts.
 */
export interface Fault {
  id: string;
  kind: 'internal' | 'rate_limited' | 'latency' | (typeof SIGNATURE_FAULTS)[number];
  /** HTTP method to match (any when absent). */
  method?: string;
  /** Route to match: an operationId (createConnection), a route path (/api/public/v1/connections/{connectionId}) or a concrete path. Any when absent. */
  route?: string;
  remaining: number;
  retryAfterSeconds?: number;
  latencyMs?: number;
  /** How far a signature fault moves the signed time (seconds; default 600). */
  skewSeconds?: number;
  /** Signature faults: only deliveries to this receiver (any when absent). */
  webhookId?: string;
}

/** What the fault middleware uses: memory answers at once; a shared sandbox takes a use across replicas (promise). */
export interface FaultPort {
  take(call: FaultCall): Fault | undefined | Promise<Fault | undefined>;
}

export type FaultCall = { method: string; path: string; routeId?: string; routePath?: string };

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

export function createFaultStore(): FaultStore {
  let faults: Fault[] = [];
  let seq = 0;
  const isSignature = (f: Fault) => (SIGNATURE_FAULTS as readonly string[]).includes(f.kind);
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
      const f = faults.find(
        (x) =>
          !isSignature(x) &&
          (!x.method || x.method.toUpperCase() === call.method) &&
          (!x.route || x.route === call.routeId || x.route === call.routePath || x.route === call.path),
      );
      if (!f) return undefined;
      use(f);
      return { ...f };
    },
    takeSignatureSkew(receiverId) {
      if (faults.length === 0) return 0;
      const f = faults.find((x) => isSignature(x) && (!x.webhookId || x.webhookId === receiverId));
      if (!f) return 0;
      use(f);
      const ms = (f.skewSeconds ?? DEFAULT_SIGNATURE_SKEW_SECONDS) * 1000;
      return f.kind === 'stale_signature' ? -ms : ms;
    },
    list: () => faults.map((f) => ({ ...f })),
    clear() {
      faults = [];
    },
  };
}
