import { describe, expect, it } from 'vitest';
import { createClock } from '../lib/clock.ts';
import { replayClock } from './shared-sandbox.ts';

describe('replayClock', () => {
  it("reads the operation's time while it is applied, plus what the operation itself moved the clock by", () => {
    let real = 1_000_000;
    const clock = replayClock(createClock(() => real));
    expect(clock.now()).toBe(1_000_000);
    const seen = clock.during(500, () => {
      real += 40; // real time passing while applying does not show
      const before = clock.now();
      clock.advance(60_000);
      return [before, clock.now()];
    });
    expect(seen).toEqual([500, 60_500]);
    expect(clock.now()).toBe(1_000_040 + 60_000);
  });
});
