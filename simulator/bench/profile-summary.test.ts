import { describe, expect, it } from 'vitest';
import { formatSummary, summariseProfile, type CpuProfile } from './profile-summary.ts';

// root -> a -> b (b recursing into a again), samples on each.
const profile: CpuProfile = {
  startTime: 0,
  endTime: 10_000,
  nodes: [
    { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2] },
    { id: 2, callFrame: { functionName: 'a', url: 'file:///x/a.js', lineNumber: 0 }, children: [3] },
    { id: 3, callFrame: { functionName: 'b', url: 'file:///x/b.js', lineNumber: 9 }, children: [4] },
    { id: 4, callFrame: { functionName: 'a', url: 'file:///x/a.js', lineNumber: 0 } },
  ],
  samples: [2, 3, 3, 4],
  timeDeltas: [1000, 2000, 3000, 4000],
};

describe('profile summary', () => {
  it('adds self time per function and counts recursion once in total time', () => {
    const rows = summariseProfile(profile);
    const a = rows.find((r) => r.name.startsWith('a '))!;
    const b = rows.find((r) => r.name.startsWith('b '))!;
    expect(a).toMatchObject({ selfMs: 5, totalMs: 10 });
    expect(b).toMatchObject({ selfMs: 5, totalMs: 9 });
    expect(a.name).toMatch(/a\.js:1$/);
    expect(rows[0]!.selfPct + rows[1]!.selfPct).toBeCloseTo(100);
    expect(formatSummary(rows, 1, 'total')).toContain('a ');
  });
});
