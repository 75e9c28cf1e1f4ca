import type { StoredClockOffset } from './ports/clock-offset.ts';

/** The memory store of the clock offset: one value, answered at once (it satisfies ClockOffsetRepository). */
export interface ClockOffsetStore {
  get(): StoredClockOffset | undefined;
  put(offset: StoredClockOffset): void;
  clear(): void;
}

/**
 * The sandbox clock's offset, kept in memory (the clock service keeps its own copy for `now()`; this is
 * what a durable decorator writes through and a restart reads back).
 * @example const offsets = createClockOffsetStore(); offsets.put({ offsetMs: 60_000, sandboxNow: Date.now() + 60_000 });
 */
export function createClockOffsetStore(): ClockOffsetStore {
  let stored: StoredClockOffset | undefined;
  return {
    get: () => stored,
    put(offset) {
      stored = offset;
    },
    clear() {
      stored = undefined;
    },
  };
}
