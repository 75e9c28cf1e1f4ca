import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ESTIMATED_SECONDS, estimateSeconds } from './vitest-sequencer.ts';

describe('test order estimates', () => {
  it('name only files that exist (a renamed file would silently lose its place)', () => {
    for (const path of Object.keys(ESTIMATED_SECONDS))
      expect(existsSync(new URL(`../../${path}`, import.meta.url)), path).toBe(true);
  });

  it('puts listed files first, then end-to-end suites, then unit tests', () => {
    expect(estimateSeconds('conformance/e2e/cli.e2e.test.ts')).toBe(
      ESTIMATED_SECONDS['conformance/e2e/cli.e2e.test.ts'],
    );
    expect(estimateSeconds('bin/ncs-usage.e2e.test.ts')).toBeGreaterThan(
      estimateSeconds('simulator/lib/clock.test.ts'),
    );
    expect(Math.min(...Object.values(ESTIMATED_SECONDS))).toBeGreaterThan(estimateSeconds('bin/ncs-usage.e2e.test.ts'));
  });
});
