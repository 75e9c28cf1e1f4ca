import type { CheckInfo } from './check.ts';

/** --require: a fraction of the checks judged, or checks that must be judged. */
export type CoverageRequirement = { fraction: number } | { checks: string[] };

/** What coverage reads of a check's result (a CheckResult has more). */
export interface JudgedResult {
  check: Pick<CheckInfo, 'name' | 'severity'>;
  status: 'pass' | 'fail' | 'skip';
  reason?: string;
}

/** What a run judged: a verdict is only as good as what it covered. */
export interface Coverage {
  /** Checks of the run. */
  total: number;
  /** Checks that passed or failed (not skipped). */
  judged: number;
  /** MUST checks of the run, and those judged. */
  mustTotal: number;
  mustJudged: number;
  /** Skipped because the run had no credentials. */
  skippedForCredentials: number;
  /** --require, when given: whether the run met it, and if not, why. */
  requirement?: { wanted: string; met: boolean; shortfall?: string };
}

/** Skip reasons that name missing credentials begin so (run-check.ts). */
export const NO_CREDENTIALS = 'no credentials';

const percent = (n: number, of: number) => (of === 0 ? '0%' : `${Math.floor((n / of) * 100)}%`);

/**
 * Coverage of a run's results and whether it meets --require.
 * @example coverageOf(results, { fraction: 0.8 }).requirement?.met
 */
export function coverageOf(results: readonly JudgedResult[], require?: CoverageRequirement): Coverage {
  const judged = results.filter((r) => r.status !== 'skip');
  const must = results.filter((r) => r.check.severity === 'MUST');
  const coverage: Coverage = {
    total: results.length,
    judged: judged.length,
    mustTotal: must.length,
    mustJudged: must.filter((r) => r.status !== 'skip').length,
    skippedForCredentials: results.filter((r) => r.status === 'skip' && r.reason?.startsWith(NO_CREDENTIALS)).length,
  };
  if (!require) return coverage;
  if ('fraction' in require) {
    const wanted = `at least ${percent(require.fraction * results.length, results.length)} of the checks judged`;
    const met = results.length > 0 && judged.length / results.length >= require.fraction;
    coverage.requirement = {
      wanted,
      met,
      ...(met
        ? {}
        : {
            shortfall: `${judged.length} of ${results.length} checks judged (${percent(judged.length, results.length)})`,
          }),
    };
    return coverage;
  }
  const byName = new Map(results.map((r) => [r.check.name, r]));
  const missing = require.checks.filter((name) => {
    const r = byName.get(name);
    return !r || r.status === 'skip';
  });
  coverage.requirement = {
    wanted: `judged: ${require.checks.join(', ')}`,
    met: missing.length === 0,
    ...(missing.length
      ? {
          shortfall: missing
            .map((name) => {
              const r = byName.get(name);
              return r ? `${name} skipped (${r.reason})` : `${name} did not run (unknown or excluded by --grep)`;
            })
            .join('; '),
        }
      : {}),
  };
  return coverage;
}

/** "coverage: 33 of 82 checks judged (40%), 20 of 55 MUST rules judged" */
export function coverageLine(c: Coverage): string {
  return `coverage: ${c.judged} of ${c.total} checks judged (${percent(c.judged, c.total)}), ${c.mustJudged} of ${c.mustTotal} MUST rules judged`;
}
