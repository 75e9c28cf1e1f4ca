import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIOLATIONS, violationOptions } from '../violations/index.ts';
import { CHECKS } from '../checks/index.ts';
import { runConformance } from '../runner/run.ts';
import { mswTargets } from './targets.ts';

/** The checks derived from the contract (tag generated): proven by the mutation score, free to catch more. */
const GENERATED = new Set(CHECKS.filter((c) => c.tags.includes('generated')).map((c) => c.name));

/** Checks no violation can provoke yet, and why. */
const NOT_SIMULATED: Record<string, string> = {
  'auth.header-name-case':
    'both transports hand the core lower-cased header names, so a case-sensitive server cannot be simulated',
};

describe('the kit catches each deliberate violation, and only with the checks it should', () => {
  const msw = mswTargets();
  beforeAll(msw.listen);
  afterAll(msw.close);

  it('has at least 30 kinds of violation, each naming existing checks', () => {
    expect(VIOLATIONS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(VIOLATIONS.map((v) => v.name)).size).toBe(VIOLATIONS.length);
    const names = new Set(CHECKS.map((c) => c.name));
    for (const v of VIOLATIONS) {
      expect(v.catches.length, v.name).toBeGreaterThan(0);
      for (const c of v.catches) expect(names, `${v.name} names ${c}`).toContain(c);
    }
  });

  it('every check is proven by at least one violation (or says why it cannot be)', () => {
    const proven = new Set(VIOLATIONS.flatMap((v) => v.catches));
    // The generated checks are proven by the mutation self-test (mutations.e2e.test.ts, npm run mutation-score).
    const unproven = CHECKS.filter((c) => !GENERATED.has(c.name))
      .map((c) => c.name)
      .filter((n) => !proven.has(n));
    expect(unproven.sort()).toEqual(Object.keys(NOT_SIMULATED).sort());
  });

  for (const violation of VIOLATIONS) {
    it(`${violation.name}: ${violation.description}`, async () => {
      const result = await runConformance(await msw.use(violationOptions(violation.name)));
      const failed = result.results.filter((r) => r.status === 'fail').map((r) => r.check.name);
      // Exactly the named checks, plus any generated check (derived from the contract, they may catch more).
      expect(failed.filter((n) => !GENERATED.has(n) || violation.catches.includes(n)).sort()).toEqual(
        [...violation.catches].sort(),
      );
      expect(result.results.filter((r) => r.error !== undefined)).toEqual([]);
      const mustCaught = failed.some((n) => CHECKS.find((c) => c.name === n)!.severity === 'MUST');
      expect(result.exitCode).toBe(mustCaught ? 1 : 0);
      // Every failure carries the evidence to reproduce it.
      for (const f of result.results.flatMap((r) => r.failures)) {
        expect(f.expected.length).toBeGreaterThan(0);
        if (f.request) expect(f.curl).toMatch(/^curl /);
      }
    });
  }
});
