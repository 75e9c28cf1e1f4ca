import { all as allOf, andThen, type MaybePromise } from '../state/ports/maybe-promise.ts';
import {
  DEFAULT_SIGNATURE_SKEW_SECONDS,
  type Fault,
  type FaultCall,
  type FaultPort,
  type FaultRepository,
  SIGNATURE_FAULTS,
} from '../state/ports/faults.ts';

export * from '../state/ports/faults.ts';

/** How the control plane arms a fault: a count of uses (default 1) or, with `durationSeconds` alone, every use until then. */
export type FaultArming = Omit<Fault, 'id' | 'remaining' | 'expiresAt'> & {
  count?: number | undefined;
  durationSeconds?: number | undefined;
};

/**
 * The fault rules over their repository: arming (ids, counts, durations), which call or webhook
 * attempt a fault applies to, taking one use (a fault with none left is gone) and the signature skew.
 * Expiry is on `now` (the sandbox passes its clock: real time plus what was advanced). Every method answers at once when
 * the repository does (memory) and with a promise when it waits.
 * @example const faults = createFaultService({ repository: createFaultStore() }); faults.arm({ kind: 'internal', route: 'createConnection' });
 */
export interface FaultService extends FaultPort {
  /** Arms a fault for `count` matching calls (default 1) or, with `durationSeconds` alone, every one until then. */
  arm(input: FaultArming): MaybePromise<Fault>;
  /** Arms a fault given its uses left and expiry (a restored snapshot, a stream_restart's 503). */
  add(fault: Omit<Fault, 'id'>): MaybePromise<Fault>;
  /** Takes one use of the first request fault matching the call, if any. */
  take(call: FaultCall): MaybePromise<Fault | undefined>;
  /**
   * Takes one use of a signature fault: the offset (ms) to add to the real time a webhook attempt is
   * signed with, 0 when none is armed.
   * @example const t = Math.floor((Date.now() + (await faults.takeSignatureSkew('wh_1'))) / 1000);
   */
  takeSignatureSkew(receiverId: string): MaybePromise<number>;
  /** The faults still armed (copies). */
  list(): MaybePromise<Fault[]>;
  clear(): MaybePromise<void>;
}

export interface FaultServiceDeps {
  repository: FaultRepository;
  /** Now in ms (default Date.now); the sandbox passes its clock, so advancing it ends a fault's duration. */
  now?: () => number;
}

const isSignature = (f: Fault) => (SIGNATURE_FAULTS as readonly string[]).includes(f.kind);

/** Whether a request fault applies to the call (method, tenant, route; cursor_expired only to a stream resumed with a cursor). */
export function faultMatches(f: Fault, call: FaultCall): boolean {
  return (
    !isSignature(f) &&
    (!f.method || f.method.toUpperCase() === call.method) &&
    (!f.tenant || f.tenant === call.tenant) &&
    (!f.route || f.route === call.routeId || f.route === call.routePath || f.route === call.path) &&
    (f.kind !== 'cursor_expired' || call.cursorSent === true)
  );
}

/** The offset a signature fault moves the signed time by (ms): into the past for stale, the future otherwise. */
export function signatureSkewMs(f: Fault): number {
  const ms = (f.skewSeconds ?? DEFAULT_SIGNATURE_SKEW_SECONDS) * 1000;
  return f.kind === 'stale_signature' ? -ms : ms;
}

/** @example const faults = createFaultService({ repository: createFaultStore() }); */
export function createFaultService(deps: FaultServiceDeps): FaultService {
  const { repository: repo } = deps;
  const now = deps.now ?? Date.now;
  let seq = 0;
  const live = (f: Fault, at: number) => f.expiresAt === undefined || f.expiresAt > at;

  /** Drops the faults whose time ran out; answers the live ones. */
  function prune(all: readonly Fault[]): MaybePromise<readonly Fault[]> {
    const at = now();
    if (all.every((f) => live(f, at))) return all;
    const kept = all.filter((f) => live(f, at));
    const done = allOf(all.filter((f) => !live(f, at)).map((f) => repo.remove(f.id)));
    return done instanceof Promise ? done.then(() => kept) : kept;
  }

  /** One use of `f`: the last one removes it. Answers the caller's copy. */
  function use(f: Fault): MaybePromise<Fault> {
    const remaining = f.remaining - 1;
    const taken = { ...f, remaining };
    const done = remaining <= 0 ? repo.remove(f.id) : repo.setRemaining(f.id, remaining);
    return done instanceof Promise ? done.then(() => taken) : taken;
  }

  const pick = (all: readonly Fault[], call: FaultCall): MaybePromise<Fault | undefined> => {
    // Nearly every call: nothing armed, no work and no allocation.
    if (all.length === 0) return undefined;
    return andThen(prune(all), (faults) => {
      const f = faults.find((x) => faultMatches(x, call));
      return f && use(f);
    });
  };

  const pickSkew = (all: readonly Fault[], receiverId: string): MaybePromise<number> => {
    if (all.length === 0) return 0;
    return andThen(prune(all), (faults) => {
      const f = faults.find((x) => isSignature(x) && (!x.webhookId || x.webhookId === receiverId));
      return f ? andThen(use(f), signatureSkewMs) : 0;
    });
  };

  const service: FaultService = {
    arm(input) {
      const { count, durationSeconds, ...rest } = input;
      return service.add({
        ...rest,
        remaining: count ?? (durationSeconds ? Number.POSITIVE_INFINITY : 1),
        ...(durationSeconds ? { expiresAt: now() + durationSeconds * 1000 } : {}),
      });
    },
    add(fault) {
      const f: Fault = { ...fault, id: `fault_${++seq}` };
      return andThen(repo.insert(f), () => ({ ...f }));
    },
    take(call) {
      const all = repo.all();
      return all instanceof Promise ? all.then((a) => pick(a, call)) : pick(all, call);
    },
    takeSignatureSkew(receiverId) {
      const all = repo.all();
      return all instanceof Promise ? all.then((a) => pickSkew(a, receiverId)) : pickSkew(all, receiverId);
    },
    list: () => andThen(andThen(repo.all(), prune), (faults) => faults.map((f) => ({ ...f }))),
    clear: () => repo.clear(),
  };
  return service;
}
