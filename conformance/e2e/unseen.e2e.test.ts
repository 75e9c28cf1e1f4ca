import { describe, expect, it } from 'vitest';
import type { ConformanceOptions } from '../runner/options.ts';
import { runConformance } from '../runner/run.ts';
import { noWait } from './targets.ts';
import { UNSEEN, unseenTarget, type UnseenViolation } from './unseen/index.ts';

// The unseen-violation proxy (npm run unseen-score runs all 42): the clean proxy must pass the kit, or
// a catch would prove nothing; one violation per channel shows the hooks reach the kit.
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

  it.each([
    ['listed-environment-production', 'generated.request-echo'],
    ['cursor-repeats-last-read', 'sse.resume-cursor'],
    ['signature-t-milliseconds', 'webhooks.timestamp'],
  ])('%s is caught by %s', { timeout: KIT_RUN_TIMEOUT_MS }, async (name, check) => {
    expect(await failedChecks(named(name))).toContain(check);
  });
});
