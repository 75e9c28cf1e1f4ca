import { describe, expect, it } from 'vitest';
import { foldRuns } from './compare.ts';
import type { LoadStats } from './load.ts';

const run = (requests: number, seconds: number, p99: number, codes: Record<string, number>): LoadStats => ({
  rps: requests / seconds,
  p50: 1,
  p99,
  p999: p99 * 2,
  requests,
  seconds,
  non2xx: codes['429'] ?? 0,
  errors: 0,
  statusCodes: codes,
});

describe('foldRuns', () => {
  it('weights req/s by requests over time, averages p99, keeps the worst p99.9 and sums codes', () => {
    const f = foldRuns([run(1000, 1, 4, { 200: 1000 }), run(3000, 3, 8, { 200: 2990, 429: 10 })]);
    expect(f.rps).toBe(1000);
    expect(f.p99).toBe(6);
    expect(f.p999).toBe(16);
    expect(f.statusCodes).toEqual({ 200: 3990, 429: 10 });
    expect(f.non2xx).toBe(10);
  });
});
