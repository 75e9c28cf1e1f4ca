import { type Clock, createClock } from '../lib/clock.ts';
import type { ClockOffsetRepository, StoredClockOffset } from '../state/ports/clock-offset.ts';
import { andThen, type MaybePromise } from '../state/ports/maybe-promise.ts';

/**
 * The sandbox clock: `now()` is real time plus an offset the process holds (synchronous and cheap, it is
 * read on every request), moved forward by `advance` and back to real time by `reset`; the offset is kept
 * in a repository, so a restart takes it up again. A Clock wherever one is expected.
 * @example const clock = createClockService({ repository }); await clock.advance(3600_000); clock.now();
 */
export interface ClockService extends Clock {
  /** Moves sandbox time forward (ms, finite, >= 0: RangeError otherwise); answers once the offset is stored. */
  advance(ms: number): MaybePromise<void>;
  /** Back to real time (the control plane's reset); answers once the stored offset is forgotten. */
  reset(): MaybePromise<void>;
  /** Settles once the stored offset is taken up (at once unless the repository waits). */
  readonly ready: MaybePromise<void>;
}

export interface ClockServiceDeps {
  repository: ClockOffsetRepository;
  /** The in-process clock the offset applies to (default: real time, `createClock()`). */
  clock?: Clock;
}

/**
 * The rules over the offset: time only moves forward, and never backwards across a restart. A stored
 * offset is taken up at start; should real time be behind the stored sandbox time (the machine's clock
 * was set back), the offset grows to cover it, so what expired before the restart stays expired.
 * @example const clock = createClockService({ repository: durableClockOffset(createClockOffsetStore(), persistence) });
 */
export function createClockService(deps: ClockServiceDeps): ClockService {
  const clock = deps.clock ?? createClock();
  const { repository } = deps;
  const restore = (stored: StoredClockOffset | undefined) => {
    if (!stored) return;
    const behind = Math.max(stored.offsetMs - clock.offset(), stored.sandboxNow - clock.now());
    if (behind > 0) clock.advance(behind);
  };
  const service: ClockService = {
    now: () => clock.now(),
    offset: () => clock.offset(),
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
      clock.advance(ms);
      return repository.put({ offsetMs: clock.offset(), sandboxNow: clock.now() });
    },
    reset() {
      // An explicit reset (the control plane's) puts the clock back to real time on purpose.
      clock.reset();
      return repository.clear();
    },
    ready: andThen(repository.get(), restore),
  };
  const { onAdvance } = clock;
  if (onAdvance) service.onAdvance = (listener) => onAdvance.call(clock, listener);
  return service;
}
