// The runs every independent deployment's test file makes (conformance/e2e/independent-<name>.e2e.test.ts),
// as a table: each row starts the deployment with its options, judges it with a full-profile run (with its
// deployment profile or none) and holds the kit to what the row allows. One file per deployment keeps its
// own rows, comments and the reasons for its options; the judging is written once, here.
import { expect, test } from 'vitest';
import type { RunResult } from '../index.ts';
import { type IndependentTarget, judgeIndependent } from './independent-options.ts';

/** Checks a deployment profile turns on (a delivery log, redelivery, a refusal to provoke, a bounded burst). */
export const PROFILE_JUDGED = [
  'webhooks.delivery-log',
  'webhooks.redelivery',
  'errors.capability-denied',
  'rate-limit.retry-after',
] as const;

export interface IndependentRun<O> {
  /** What the run is, for the test's name: "without a deployment profile", "with 2 s tokens". */
  name: string;
  /** The deployment's start options for this run (each run starts its own deployment). */
  options?: O;
  /** The deployment profile file, or none. */
  profile?: string;
  /** What may fail: nothing (default), or SHOULDs only (a variant whose legal choices earn a warning). */
  allow?: 'should';
  /** Checks that must have passed (judged, not skipped), e.g. PROFILE_JUDGED with a profile. */
  judged?: readonly string[];
  /** Further expectations on the run. */
  also?: (run: RunResult) => void;
}

export interface IndependentSuite<O> {
  /** The deployment's name, as its folder is named. */
  deployment: string;
  start: (options?: O) => Promise<IndependentTarget & { close(): Promise<void> }>;
  runs: readonly IndependentRun<O>[];
  /** Runs side by side (they mostly wait on streams and deliveries), unless the deployment's windows need them in turn. */
  concurrent?: boolean;
  /**
   * The hang guard of one run (default 120 s, the floor: a run that takes 25 s on a quiet machine took over 60 s
   * in the official CI's whole-suite run, where the CPU is the limit).
   */
  timeout?: number;
  /**
   * SHOULD checks the deployment fails in every run by a choice of its own the kit rightly warns about (a
   * scheme read in one letter case): those warnings are expected, every other failure still fails the run.
   */
  warns?: readonly string[];
}

/**
 * Registers one test per run: no failed check the run does not allow, exit code 0, and the checks it names judged.
 * @example independentSuite({ deployment: 'elm', start: startElm, runs: [{ name: 'without a deployment profile' }] });
 */
export function independentSuite<O>(suite: IndependentSuite<O>): void {
  const register = suite.concurrent === false ? test : test.concurrent;
  for (const r of suite.runs) {
    const allowed = r.allow === 'should' ? 'no failed MUST' : 'no failed MUST or SHOULD';
    register(
      `${suite.deployment} ${r.name}: ${allowed}, exit code 0`,
      { timeout: Math.max(suite.timeout ?? 0, 120_000) },
      async () => {
        const { run, failed } = await judgeIndependent(() => suite.start(r.options), r.profile);
        const expected = (f: string) => (suite.warns ?? []).some((w) => f.startsWith(`SHOULD ${w}:`));
        const unexpected = failed.filter((f) => !expected(f));
        expect(r.allow === 'should' ? unexpected.filter((f) => f.startsWith('MUST')) : unexpected).toEqual([]);
        expect(run.exitCode, run.error).toBe(0);
        const passed = new Set(run.results.filter((x) => x.status === 'pass').map((x) => x.check.name));
        // A check not judged says why (its skip reason or failure), so a failure in a loaded run is explained.
        const why = (name: string) => {
          const res = run.results.find((x) => x.check.name === name);
          return `${name}: ${res?.status ?? 'not run'} ${JSON.stringify(res?.reason ?? res?.error ?? res?.failures ?? '').slice(0, 400)}`;
        };
        for (const name of r.judged ?? []) expect(passed, why(name)).toContain(name);
        r.also?.(run);
      },
    );
  }
}
