import type { Clock } from '../lib/clock.ts';

/** A clock that reads the operation's time while a replicated operation is applied. */
export type ReplayClock = Clock & { during<T>(at: number, fn: () => T): T };

export function replayClock(base: Clock): ReplayClock {
  // While applying: the operation's time, plus whatever the operation itself moved the clock by.
  let frozen: { at: number; offset: number } | undefined;
  return {
    ...base,
    now: () => (frozen ? frozen.at + base.offset() - frozen.offset : base.now()),
    during(at, fn) {
      const previous = frozen;
      frozen = { at, offset: base.offset() };
      try {
        return fn();
      } finally {
        frozen = previous;
      }
    },
  };
}
