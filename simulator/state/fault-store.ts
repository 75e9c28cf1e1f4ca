/** A fault armed from the control plane for the next `remaining` matching calls. */
export interface Fault {
  id: string;
  kind: 'internal' | 'rate_limited' | 'latency';
  /** HTTP method to match (any when absent). */
  method?: string;
  /** Route to match: an operationId (createConnection), a route path (/api/public/v1/connections/{connectionId}) or a concrete path. Any when absent. */
  route?: string;
  remaining: number;
  retryAfterSeconds?: number;
  latencyMs?: number;
}

export interface FaultStore {
  add(fault: Omit<Fault, 'id'>): Fault;
  /** Takes one use of the first fault matching the call, if any. */
  take(call: { method: string; path: string; routeId?: string; routePath?: string }): Fault | undefined;
  list(): Fault[];
  clear(): void;
}

export function createFaultStore(): FaultStore {
  let faults: Fault[] = [];
  let seq = 0;
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
          (!x.method || x.method.toUpperCase() === call.method) &&
          (!x.route || x.route === call.routeId || x.route === call.routePath || x.route === call.path),
      );
      if (!f) return undefined;
      f.remaining -= 1;
      if (f.remaining <= 0) faults = faults.filter((x) => x !== f);
      return { ...f };
    },
    list: () => faults.map((f) => ({ ...f })),
    clear() {
      faults = [];
    },
  };
}
