import { describe, expect, it } from 'vitest';
import { createClock } from './clock.ts';
import type { Scheduler } from './scheduler.ts';
import { createTimeline } from './timeline.ts';

/** A scheduler that records what is armed, so tests see the one real timer without waiting. */
function recordingScheduler() {
  const armed = new Set<{ fn: () => void; delay: number }>();
  const scheduler: Scheduler = {
    schedule(fn, delay) {
      const t = { fn, delay };
      armed.add(t);
      return () => void armed.delete(t);
    },
  };
  return {
    scheduler,
    armed,
    fireAll() {
      for (const t of [...armed]) {
        armed.delete(t);
        t.fn();
      }
    },
  };
}

describe('timeline', () => {
  it('keeps one timer armed for the earliest task and fires tasks when the clock reaches them', () => {
    let now = 1_000;
    const clock = createClock(() => now);
    const { scheduler, armed, fireAll } = recordingScheduler();
    const tl = createTimeline(clock, scheduler);
    const fired: string[] = [];
    tl.at(5_000, () => fired.push('b'));
    tl.at(3_000, () => fired.push('a'));
    expect([...armed].map((t) => t.delay)).toEqual([2_000]);
    now = 3_000;
    fireAll();
    expect(fired).toEqual(['a']);
    expect([...armed].map((t) => t.delay)).toEqual([2_000]);
  });

  it('advancing the clock fires what fell due at once, in due order', () => {
    const clock = createClock(() => 0);
    const { scheduler } = recordingScheduler();
    const tl = createTimeline(clock, scheduler);
    const fired: number[] = [];
    for (const due of [30_000, 10_000, 90_000]) tl.at(due, () => fired.push(due));
    clock.advance(45_000);
    expect(fired).toEqual([10_000, 30_000]);
  });

  it('cancelled tasks never run; close disarms the timer and ignores the clock after', () => {
    const clock = createClock(() => 0);
    const { scheduler, armed } = recordingScheduler();
    const tl = createTimeline(clock, scheduler);
    let runs = 0;
    const cancel = tl.at(1_000, () => runs++);
    tl.at(2_000, () => runs++);
    cancel();
    tl.close();
    expect(armed.size).toBe(0);
    clock.advance(10_000);
    expect(runs).toBe(0);
  });

  it('uses unref timers by default: a waiting task never keeps the process alive', () => {
    const clock = createClock();
    const tl = createTimeline(clock);
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    tl.at(clock.now() + 60_000, () => {});
    // unref'd timers are not reported as keeping the loop alive
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(before);
    tl.close();
  });

  it('cancelled tasks release their callbacks and are compacted away', () => {
    const clock = createClock(() => 0);
    const { scheduler } = recordingScheduler();
    const tl = createTimeline(clock, scheduler);
    let runs = 0;
    const cancels = Array.from({ length: 5000 }, (_, i) => tl.at(1_000 + i, () => runs++));
    tl.at(10_000, () => runs++);
    for (const c of cancels) c();
    expect(tl.size()).toBeLessThan(2100);
    clock.advance(20_000);
    expect(runs).toBe(1);
  });
});
