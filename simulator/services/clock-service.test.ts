import { describe, expect, it } from 'vitest';
import { createClock } from '../lib/clock.ts';
import { createClockOffsetStore } from '../state/clock-offset-store.ts';
import { createClockService } from './clock-service.ts';
import { networkLike } from '../test-support/network-like.ts';

describe.each([
  ['memory', false],
  ['a repository answering promises', true],
])('clock service over %s', (_, async) => {
  const setup = (real: { now: number }, memory = createClockOffsetStore()) => {
    const repository = async ? networkLike(memory) : memory;
    return { clock: createClockService({ clock: createClock(() => real.now), repository }), memory };
  };

  it('reads now() at once from the process; advance stores the offset and when it was written', async () => {
    const real = { now: 1_000 };
    const { clock, memory } = setup(real);
    await clock.ready;
    const advanced = clock.advance(60_000);
    // now() never waits for the repository: it moved at once.
    expect(clock.now()).toBe(61_000);
    expect(advanced instanceof Promise).toBe(async);
    await advanced;
    expect(memory.get()).toEqual({ offsetMs: 60_000, sandboxNow: 61_000 });
    real.now = 2_000;
    expect(clock.now()).toBe(62_000);
    expect(clock.offset()).toBe(60_000);
  });

  it('only moves forward', async () => {
    const { clock, memory } = setup({ now: 1_000 });
    await clock.ready;
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
    expect(clock.offset()).toBe(0);
    expect(memory.get()).toBeUndefined();
  });

  it('takes a stored offset up at start and never starts before the stored sandbox time', async () => {
    const memory = createClockOffsetStore();
    memory.put({ offsetMs: 10_000, sandboxNow: 50_000 });
    // Real time went back to 20,000 (behind 50,000 - 10,000): the offset grows to 30,000.
    const behind = setup({ now: 20_000 }, memory).clock;
    await behind.ready;
    expect(behind.now()).toBe(50_000);
    // Real time went on to 45,000: the stored offset alone holds.
    const ahead = setup({ now: 45_000 }, memory).clock;
    await ahead.ready;
    expect(ahead.now()).toBe(55_000);
  });

  it('reset goes back to real time and forgets the stored offset; listeners hear every advance', async () => {
    const { clock, memory } = setup({ now: 1_000 });
    await clock.ready;
    const heard: number[] = [];
    const off = clock.onAdvance?.(() => heard.push(clock.now()));
    await clock.advance(5_000);
    off?.();
    await clock.advance(1);
    expect(heard).toEqual([6_000]);
    await clock.reset();
    expect(clock.now()).toBe(1_000);
    expect(memory.get()).toBeUndefined();
  });
});
