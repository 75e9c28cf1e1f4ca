import { describe, expect, it } from 'vitest';
import { createClock } from './clock.ts';
import { createManualScheduler, realScheduler } from './scheduler.ts';

describe('manual scheduler', () => {
  it('runs tasks in due order as the clock is advanced, including tasks scheduled while running', () => {
    const clock = createClock(() => 1_000);
    const s = createManualScheduler(clock);
    const ran: string[] = [];
    s.schedule(() => ran.push(`b@${clock.now()}`), 200);
    s.schedule(() => {
      ran.push(`a@${clock.now()}`);
      s.schedule(() => ran.push(`c@${clock.now()}`), 50);
    }, 100);
    const cancel = s.schedule(() => ran.push('never'), 120);
    cancel();
    s.advance(99);
    expect(ran).toEqual([]);
    s.advance(200);
    expect(ran).toEqual(['a@1100', 'c@1150', 'b@1200']);
    expect(clock.now()).toBe(1_299);
    expect(s.pending()).toBe(0);
  });

  it('runNext jumps to the earliest task', () => {
    const clock = createClock(() => 0);
    const s = createManualScheduler(clock);
    let hit = 0;
    s.schedule(() => hit++, 5_000);
    expect(s.runNext()).toBe(true);
    expect([hit, clock.now()]).toEqual([1, 5_000]);
    expect(s.runNext()).toBe(false);
  });
});

describe('real scheduler', () => {
  it('runs a task and cancels another', async () => {
    const ran: number[] = [];
    const done = new Promise<void>((resolve) => realScheduler.schedule(() => (ran.push(1), resolve()), 0));
    realScheduler.schedule(() => ran.push(2), 0)();
    await done;
    await new Promise((r) => setImmediate(r));
    expect(ran).toEqual([1]);
  });
});
