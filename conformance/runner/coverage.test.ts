import { describe, expect, it } from 'vitest';
import type { CheckResult } from './events.ts';
import { coverageLine, coverageOf } from './coverage.ts';
import { parseRequire, UsageError } from './options.ts';

const result = (name: string, severity: 'MUST' | 'SHOULD', status: CheckResult['status'], reason?: string) =>
  ({
    check: { name, area: name.split('.')[0]!, title: '', severity, section: '', tags: [], mutating: false },
    status,
    durationMs: 0,
    failures: [],
    notes: [],
    ...(reason ? { reason } : {}),
  }) as CheckResult;

const results = [
  result('a.one', 'MUST', 'pass'),
  result('a.two', 'MUST', 'skip', 'no credentials: pass --token'),
  result('b.three', 'SHOULD', 'fail'),
  result('b.four', 'MUST', 'skip', 'no alternate base URL'),
];

describe('coverage and --require', () => {
  it('counts what was judged, MUST rules apart, and skips for lack of credentials', () => {
    const c = coverageOf(results);
    expect(c).toEqual({ total: 4, judged: 2, mustTotal: 3, mustJudged: 1, skippedForCredentials: 1 });
    expect(coverageLine(c)).toBe('coverage: 2 of 4 checks judged (50%), 1 of 3 MUST rules judged');
  });

  it('meets or misses a fraction or a list of checks, naming why', () => {
    expect(coverageOf(results, parseRequire('0.5')).requirement?.met).toBe(true);
    expect(coverageOf(results, parseRequire('75%')).requirement).toMatchObject({
      met: false,
      shortfall: '2 of 4 checks judged (50%)',
    });
    expect(coverageOf(results, parseRequire('a.one,b.three')).requirement?.met).toBe(true);
    expect(coverageOf(results, parseRequire(['a.two', 'z.none'])).requirement?.shortfall).toBe(
      'a.two skipped (no credentials: pass --token); z.none did not run (unknown or excluded by --grep)',
    );
    expect(() => parseRequire('1.5')).toThrow(UsageError);
    expect(() => parseRequire(' , ')).toThrow(UsageError);
  });
});
