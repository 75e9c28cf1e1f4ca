import type { Clock } from '../../lib/clock.ts';
import type { Persistence } from './persistence.ts';
import { PersistenceError } from './persistence-error.ts';

const NS = 'clock';
const KEY = 'sandbox';

interface StoredClock {
  /** The offset from real time, ms. */
  offsetMs: number;
  /** Sandbox time when it was written: a restart never starts before it. */
  sandboxNow: number;
}

/**
 * The sandbox clock written through to the data dir: its offset is saved on every advance and reset,
 * and a restart takes it up again, so time advanced before the restart stays advanced (expired tokens
 * and keys stay expired). Time never moves backwards across restarts: should real time be behind the
 * saved sandbox time (the machine's clock was set back), the offset grows to cover it.
 * @example const clock = durableClock(createClock(), persistence); clock.advance(3600_000); // survives a restart
 */
export function durableClock(clock: Clock, persistence: Persistence): Clock {
  if (!persistence.durable) return clock;
  let stored: StoredClock | undefined;
  for (const [key, value] of persistence.entries<StoredClock>(NS)) if (key === KEY) stored = value;
  if (stored !== undefined) {
    if (!Number.isFinite(stored?.offsetMs) || !Number.isFinite(stored?.sandboxNow) || stored.offsetMs < 0)
      throw new PersistenceError(
        `${persistence.lastRead?.() ?? 'the data dir'}: the stored sandbox clock is not {offsetMs, sandboxNow}; the data dir is damaged.`,
      );
    const behind = Math.max(stored.offsetMs - clock.offset(), stored.sandboxNow - clock.now());
    if (behind > 0) clock.advance(behind);
  }
  const save = () => persistence.put(NS, KEY, { offsetMs: clock.offset(), sandboxNow: clock.now() });
  return {
    ...clock,
    now: () => clock.now(),
    offset: () => clock.offset(),
    advance(ms) {
      clock.advance(ms);
      save();
    },
    reset() {
      // An explicit reset (the control plane's) puts the clock back to real time on purpose.
      clock.reset();
      persistence.delete(NS, KEY);
    },
  };
}
