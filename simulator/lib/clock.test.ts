import { describe, expect, it } from 'vitest';
import { createClock } from './clock.ts';

describe('the sandbox clock', () => {
  it('moves forward only, on top of real time', () => {
    let real = 1_000;
    const clock = createClock(() => real);
    clock.advance(500);
    real += 10;
    expect(clock.now()).toBe(1_510);
    expect(clock.offset()).toBe(500);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    clock.reset();
    expect(clock.now()).toBe(1_010);
  });
});
