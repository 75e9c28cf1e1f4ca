import { describe, expect, it } from 'vitest';
import { allMutants, OPERATORS } from '../violations/mutations/index.ts';
import { mutationScore } from '../violations/mutations/score.ts';

/**
 * A deterministic sample of the generated mutants: the first of every operator (the full set is
 * `npm run mutation-score`, minutes long).
 */
function sample() {
  const all = allMutants();
  return OPERATORS.map((o) => all.find((m) => m.operator === o.name)!).filter(Boolean);
}

describe('the mutation self-test: violations generated from the contract', () => {
  it('every operator makes mutants with unique names, derived from the contract', () => {
    const all = allMutants();
    expect(new Set(all.map((m) => m.name)).size).toBe(all.length);
    for (const o of OPERATORS)
      expect(
        all.some((m) => m.operator === o.name),
        o.name,
      ).toBe(true);
    // Drop, retype and out-of-range cover every field of every judged route: more than a hand-made list would.
    expect(all.length).toBeGreaterThan(150);
  });

  it('the kit kills at least 95 % of a sample with one mutant per operator', async () => {
    const mutants = sample();
    const s = await mutationScore({ mutants, concurrency: 2 });
    expect(s.survivors.map((r) => r.name)).toEqual([]);
    expect(s.score).toBeGreaterThanOrEqual(0.95);
  }, 600_000);
});
