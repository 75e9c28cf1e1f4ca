import type { Clock } from './clock.ts';

/**
 * Runs a function later; returns a function that cancels it. Everything that waits (webhook retries,
 * attempt timeouts) goes through one, so tests drive time with the manual scheduler instead of sleeping.
 * @example const cancel = realScheduler.schedule(() => retry(), 2_000);
 */
export interface Scheduler {
  schedule(fn: () => void, delayMs: number): () => void;
}

/** Node timers, unref'd so pending retries never keep a process alive on their own. */
export const realScheduler: Scheduler = {
  schedule(fn, delayMs) {
    const timer = setTimeout(fn, Math.max(0, delayMs));
    timer.unref?.();
    return () => clearTimeout(timer);
  },
};

export interface ManualScheduler extends Scheduler {
  /** Tasks not yet run or cancelled. */
  pending(): number;
  /** Moves the clock forward by ms, running every task that falls due, in due order. */
  advance(ms: number): void;
  /** Moves the clock to the earliest task and runs it (and any due at the same instant); false when none. */
  runNext(): boolean;
}

/**
 * A scheduler for tests: nothing runs until the test advances it; advancing also moves `clock`.
 * @example const clock = createClock(() => 0); const s = createManualScheduler(clock); s.advance(1_000);
 */
export function createManualScheduler(clock: Clock): ManualScheduler {
  let seq = 0;
  const tasks = new Map<number, { due: number; fn: () => void }>();
  const earliest = () => {
    let best: [number, { due: number; fn: () => void }] | undefined;
    for (const entry of tasks) if (!best || entry[1].due < best[1].due) best = entry;
    return best;
  };
  const runDueAt = (t: number) => {
    for (let next = earliest(); next && next[1].due <= t; next = earliest()) {
      if (next[1].due > clock.now()) clock.advance(next[1].due - clock.now());
      tasks.delete(next[0]);
      next[1].fn();
    }
  };
  return {
    schedule(fn, delayMs) {
      const id = ++seq;
      tasks.set(id, { due: clock.now() + Math.max(0, delayMs), fn });
      return () => void tasks.delete(id);
    },
    pending: () => tasks.size,
    advance(ms) {
      const target = clock.now() + ms;
      runDueAt(target);
      if (target > clock.now()) clock.advance(target - clock.now());
    },
    runNext() {
      const next = earliest();
      if (!next) return false;
      runDueAt(next[1].due);
      return true;
    },
  };
}
