import { describe, expect, it } from 'vitest';
import { outOfOrder } from './meta-at-order.ts';

const SKEW = 2_000;
// An honest service 1 h ahead of the kit, answering in 10 ms: at within [sent, received] + 1 h.
const honest = (sent: number) => ({ at: sent + 3_600_000 + 5, sent, received: sent + 10 });

describe('outOfOrder', () => {
  it('finds none in a clock that moves forward, however far ahead of the kit and however it was moved on', () => {
    const calls = [0, 1_000, 2_000, 3_000].map(honest);
    expect(outOfOrder(calls, SKEW)).toBeUndefined();
    // Moved on by a day between two calls (a sandbox clock advanced), and overlapping calls in any order.
    const moved = [...calls, { at: 4_000 + 86_400_000, sent: 4_000, received: 4_010 }, honest(3_005)];
    expect(outOfOrder(moved, SKEW)).toBeUndefined();
    // Whole seconds (a second truncated) and a slow answer stating its arrival time.
    expect(
      outOfOrder(
        [
          { at: 999_000, sent: 999_900, received: 999_950 },
          { at: 1_000_000, sent: 1_000_000, received: 1_030_000 },
        ],
        SKEW,
      ),
    ).toBeUndefined();
  });

  it('finds an answer stating a time frozen at an earlier one, once more than the skew has passed', () => {
    const first = honest(0);
    const frozen = { at: first.at, sent: 5_000, received: 5_010 };
    const found = outOfOrder([first, honest(2_000), frozen], SKEW);
    expect(found?.later).toBe(frozen);
    expect(found?.behindMs).toBeCloseTo(2_000 + 3_600_000 + 5 - 2_010 - (first.at - 5_000), 0);
    // Within the skew: not judged.
    expect(outOfOrder([first, { at: first.at, sent: 1_500, received: 1_510 }], SKEW)).toBeUndefined();
  });

  it('finds one address running minutes behind the other', () => {
    const home = [0, 2_000, 4_000].map(honest);
    const alt = { ...honest(3_000), at: honest(3_000).at - 420_000 };
    expect(outOfOrder([...home, alt], SKEW)?.behindMs).toBeGreaterThan(400_000);
  });
});
