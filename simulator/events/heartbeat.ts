export interface IntervalTimers {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** Node's timers, unref'd: a heartbeat never keeps the process alive. */
export const realTimers: IntervalTimers = {
  setInterval: (fn, ms) => setInterval(fn, ms).unref(),
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
};

/** What beats: an open stream that writes its keep-alive comment when told. */
export interface HeartbeatMember {
  heartbeat(): void;
}

interface Beat {
  members: Set<HeartbeatMember>;
  handle: unknown;
}

// One interval timer per (timers, interval) for every open stream, instead of a Timeout and a closure
// per stream: on each tick the set is swept. The timer exists only while a stream is open. A stream
// opened between two ticks gets its first heartbeat at the next tick (sooner than one interval).
const beats = new WeakMap<IntervalTimers, Map<number, Beat>>();

/**
 * Adds a stream to the shared heartbeat of `ms`, starting its timer if it is the first.
 * @example joinHeartbeat(realTimers, 15_000, stream); // stream.heartbeat() every 15 s until leaveHeartbeat
 */
export function joinHeartbeat(timers: IntervalTimers, ms: number, member: HeartbeatMember): void {
  let byMs = beats.get(timers);
  if (!byMs) {
    byMs = new Map();
    beats.set(timers, byMs);
  }
  let beat = byMs.get(ms);
  if (!beat) {
    const members = new Set<HeartbeatMember>();
    beat = { members, handle: timers.setInterval(() => sweep(members), ms) };
    byMs.set(ms, beat);
  }
  beat.members.add(member);
}

/** Removes a stream; the last one out stops the timer. @example leaveHeartbeat(realTimers, 15_000, stream); */
export function leaveHeartbeat(timers: IntervalTimers, ms: number, member: HeartbeatMember): void {
  const byMs = beats.get(timers);
  const beat = byMs?.get(ms);
  if (!byMs || !beat?.members.delete(member) || beat.members.size > 0) return;
  timers.clearInterval(beat.handle);
  byMs.delete(ms);
}

function sweep(members: Set<HeartbeatMember>): void {
  // A member may leave during its own beat (a refused write ends a stream); Set iteration allows that.
  for (const m of members) {
    try {
      m.heartbeat();
    } catch {
      // One failing stream must not keep the heartbeat from the others.
    }
  }
}
