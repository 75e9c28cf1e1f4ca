// The kit against each deliberate violation, in shards: one file per shard (violations-<n>.e2e.test.ts),
// so test workers run them side by side instead of one file holding the whole run for minutes.
import { existsSync } from 'node:fs';
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

/**
 * A whole kit run takes a few seconds, many times that on a machine busy with other work. A run cut
 * by the test timeout would go on in the background against the next test's sandbox (one MSW server
 * per file) and fail that one too: the timeout is the kit's own scale, not the unit tests' 20 s.
 */
const KIT_RUN_TIMEOUT_MS = 90_000;

/** How many files the violations are spread over (each file runs every SHARDS-th violation). */
export const SHARDS = 4;

/**
 * Registers the violations of one shard (0-based); shard 0 also checks the list itself.
 * @example violationSuite(0) // in violations-1.e2e.test.ts
 */
export function violationSuite(shard: number): void {
  describe(`the kit catches each deliberate violation, and only with the checks it should (${shard + 1}/${SHARDS})`, () => {
    const msw = mswTargets();
    beforeAll(msw.listen);
    afterAll(msw.close);
    if (shard === 0) listChecks();
    VIOLATIONS.filter((_, i) => i % SHARDS === shard).forEach(violationCase(msw));
  });
}

function listChecks(): void {
  it('every shard has its file, so no violation goes unrun', () => {
    for (let n = 1; n <= SHARDS; n++)
      expect(existsSync(new URL(`./violations-${n}.e2e.test.ts`, import.meta.url)), `violations-${n}`).toBe(true);
  });

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
}

function violationCase(msw: ReturnType<typeof mswTargets>) {
  return (violation: (typeof VIOLATIONS)[number]) => {
    it(
      `${violation.name}: ${violation.description}`,
      async () => {
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
      },
      KIT_RUN_TIMEOUT_MS,
    );
  };
}
