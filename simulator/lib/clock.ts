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
}

export function createClock(base: () => number = Date.now): Clock {
  let offset = 0;
  return {
    now: () => base() + offset,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
      offset += ms;
    },
    offset: () => offset,
    reset() {
      offset = 0;
    },
  };
}
