import { describe, expect, it } from 'vitest';
import { groupDrift, groupsApart, META_AT_SPREAD_MS } from './meta-at.ts';

const H = 3_600_000;

describe('groupDrift', () => {
  it("measures each route's answers against the other routes' answers that arrived around them", () => {
    // Three routes called in turn, one second apart; route c writes its local time (UTC-5) labelled UTC.
    const stamped = Array.from({ length: 30 }, (_, i) => {
      const group = ['a', 'b', 'c'][i % 3] as string;
      return { group, at: i * 1000 - (group === 'c' ? 5 * H : 0) };
    });
    const apart = groupsApart(stamped);
    expect([...apart.keys()]).toEqual(['c']);
    expect(apart.get('c')).toBeLessThan(-4 * H);
    // Measured with c among the neighbours, a and b are pulled hours away too: c is set apart first.
    expect(Math.abs(groupDrift(stamped).get('a') ?? 0)).toBeGreaterThan(META_AT_SPREAD_MS);
  });
  it('follows a clock moved during the run (a sandbox advanced a day): neighbours move with it', () => {
    const stamped = Array.from({ length: 40 }, (_, i) => ({
      group: ['a', 'b', 'c', 'd'][i % 4] as string,
      at: i * 1000 + (i >= 20 ? 24 * H : 0),
    }));
    expect(groupsApart(stamped).size).toBe(0);
  });
});
