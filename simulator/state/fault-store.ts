import type { Fault, FaultRepository } from './ports/faults.ts';

/**
 * The armed faults in memory, oldest first. The array handed out by `all` is never changed afterwards
 * (arming and removal copy it; both are rare), so a caller may walk it while faults are taken.
 * @example const repository = createFaultStore(); repository.insert({ id: 'fault_1', kind: 'internal', remaining: 1 });
 */
export function createFaultStore() {
  let faults: readonly Fault[] = [];
  return {
    insert(fault: Fault) {
      faults = [...faults, fault];
    },
    all: (): readonly Fault[] => faults,
    setRemaining(id: string, remaining: number) {
      const f = faults.find((x) => x.id === id);
      if (f) f.remaining = remaining;
    },
    remove(id: string) {
      faults = faults.filter((x) => x.id !== id);
    },
    clear() {
      faults = [];
    },
  } satisfies FaultRepository;
}

export type FaultStore = ReturnType<typeof createFaultStore>;
