// The phases' order: a check that compares reads of tenant data (readsStill) starts only once every check
// that makes calls has ended, so none of the run's writes moves what it compares, and before the judges.
import { describe, expect, it } from 'vitest';
import type { CheckDef } from './check.ts';
import type { CheckResult } from './events.ts';
import { runInPhases } from './phases.ts';

const check = (name: string, over: Partial<CheckDef> = {}): CheckDef => ({
  name,
  title: name,
  severity: 'MUST',
  section: 'Endpoints',
  tags: [],
  mutating: false,
  async run() {},
  ...over,
});

describe('runInPhases', () => {
  it('runs readsStill checks after every calling check has ended and before the judging checks', async () => {
    const log: string[] = [];
    const checks = [
      check('demo.still', { readsStill: true }),
      check('demo.slow-writer', { mutating: true }),
      check('demo.fast-reader'),
      check('demo.judge', { judgesRun: true }),
      check('demo.burst', { exhausts: () => true }),
    ];
    const delay: Record<string, number> = { 'demo.slow-writer': 40, 'demo.fast-reader': 5 };
    const runOne = async (c: CheckDef) => {
      log.push(`start ${c.name}`);
      await new Promise((r) => setTimeout(r, delay[c.name] ?? 1));
      log.push(`end ${c.name}`);
      return { check: { name: c.name } } as unknown as CheckResult;
    };
    const results = await runInPhases(
      checks,
      4,
      runOne,
      (c) => c.exhausts?.({} as never) === true,
      async () => {},
    );
    const at = (line: string) => log.indexOf(line);
    expect(at('start demo.still')).toBeGreaterThan(at('end demo.slow-writer'));
    expect(at('start demo.still')).toBeGreaterThan(at('end demo.fast-reader'));
    expect(at('start demo.judge')).toBeGreaterThan(at('end demo.still'));
    expect(at('start demo.burst')).toBeGreaterThan(at('end demo.judge'));
    // Reported in the registry's order whatever the phase.
    expect(results.map((r) => r.check.name)).toEqual(checks.map((c) => c.name));
  });

  it('runs the checks that arm a fault one at a time, after every calling check and before the readers', async () => {
    const log: string[] = [];
    const checks = [
      check('demo.arm-a', { alone: true }),
      check('demo.arm-b', { alone: true }),
      check('demo.writer', { mutating: true }),
      check('demo.still', { readsStill: true }),
    ];
    const runOne = async (c: CheckDef) => {
      log.push(`start ${c.name}`);
      await new Promise((r) => setTimeout(r, c.name === 'demo.writer' ? 30 : 5));
      log.push(`end ${c.name}`);
      return { check: { name: c.name } } as unknown as CheckResult;
    };
    await runInPhases(
      checks,
      4,
      runOne,
      () => false,
      async () => {},
    );
    const at = (line: string) => log.indexOf(line);
    expect(at('start demo.arm-a')).toBeGreaterThan(at('end demo.writer'));
    expect(at('start demo.arm-b')).toBeGreaterThan(at('end demo.arm-a'));
    expect(at('start demo.still')).toBeGreaterThan(at('end demo.arm-b'));
  });
});
