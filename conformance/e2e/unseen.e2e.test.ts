import { describe, expect, it } from 'vitest';
import type { ConformanceOptions } from '../runner/options.ts';
import { runConformance } from '../runner/run.ts';
import { noWait } from './targets.ts';
import { UNSEEN, unseenTarget, type UnseenViolation } from './unseen/index.ts';

// The unseen-violation proxy (npm run unseen-score runs all 42, about 4 minutes): here only that the clean
// proxy passes the kit (or a catch would prove nothing) and that one violation reaches it, two kit runs.
const KIT_RUN_TIMEOUT_MS = 90_000;
const failedChecks = async (v: UnseenViolation | undefined) => {
  const target = await unseenTarget(v);
  try {
    const opts: ConformanceOptions = { ...target.full, retry: noWait, seed: 1 };
    const result = await runConformance(opts);
    return result.results.filter((r) => r.status === 'fail').map((r) => r.check.name);
  } finally {
    await target.close();
  }
};
const named = (name: string) => UNSEEN.find((v) => v.name === name);

describe('the unseen-violation proxy', () => {
  it('holds 42 distinct violations, each naming the statement it breaks', () => {
    expect(UNSEEN).toHaveLength(42);
    expect(new Set(UNSEEN.map((v) => v.name)).size).toBe(UNSEEN.length);
    for (const v of UNSEEN) expect(v.statement.length, v.name).toBeGreaterThan(10);
  });

  it('passes the kit clean, with every option', { timeout: KIT_RUN_TIMEOUT_MS }, async () => {
    expect(await failedChecks(undefined)).toEqual([]);
  });

  it('catches a violation through the proxy (a cursor resume repeating the last message read)', {
    timeout: KIT_RUN_TIMEOUT_MS,
  }, async () => {
    expect(await failedChecks(named('cursor-repeats-last-read'))).toContain('sse.resume-cursor');
  });
});
