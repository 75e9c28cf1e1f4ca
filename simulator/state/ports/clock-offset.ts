import type { MaybePromise } from './maybe-promise.ts';

/** The sandbox clock as stored: its offset from real time and the sandbox time when it was written. */
export interface StoredClockOffset {
  /** How far sandbox time is ahead of real time, ms. */
  offsetMs: number;
  /** Sandbox time when the offset was written (ms): a restart never starts before it. */
  sandboxNow: number;
}

/**
 * Where the sandbox clock's offset is kept. It knows no rule: moving only forward, never starting before
 * the stored time, and `now()` computed in the process are the clock service's
 * (services/clock-service.ts). Every method may answer with a promise; the memory store answers at once.
 * @example andThen(repository.get(), (stored) => stored?.offsetMs ?? 0)
 */
export interface ClockOffsetRepository {
  /** The last offset written, undefined when none was (or it was cleared). */
  get(): MaybePromise<StoredClockOffset | undefined>;
  put(offset: StoredClockOffset): MaybePromise<void>;
  /** Forgets the offset (an explicit reset back to real time). */
  clear(): MaybePromise<void>;
}
