/**
 * The simulator's clock. Everything that expires or stamps time reads it, so the control plane can
 * move it and tests never sleep.
 * @example const clock = createClock(); clock.advance(60_000); new Date(clock.now());
 */
export interface Clock {
  now(): number;
  /** Moves simulated time forward (ms); real time keeps flowing on top. */
  advance(ms: number): void;
  /** Current offset from real time in ms. */
  offset(): number;
  reset(): void;
  /**
   * Calls `listener` after every advance, so whatever waits on simulated time (lifecycle transitions,
   * token expiry) fires at once instead of at the next real timer. Optional for hand-written clocks.
   */
  onAdvance?(listener: () => void): () => void;
}

export function createClock(base: () => number = Date.now): Clock {
  let offset = 0;
  const listeners = new Set<() => void>();
  return {
    now: () => base() + offset,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
      offset += ms;
      for (const l of [...listeners]) l();
    },
    onAdvance(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    offset: () => offset,
    reset() {
      offset = 0;
    },
  };
}
