import type { CheckInfo, ProfileName } from './check.ts';
import { coverageOf, type Coverage, type CoverageRequirement } from './coverage.ts';
import type { Failure } from './failure.ts';

export interface RunTarget {
  baseUrl: string;
  altBaseUrl?: string;
  tenant?: string;
  environment?: string;
  /** How the run authenticates: a given token, client credentials, or not at all. */
  credentials: 'token' | 'client-credentials' | 'none';
}

export interface CheckResult {
  check: CheckInfo;
  status: 'pass' | 'fail' | 'skip';
  durationMs: number;
  failures: Failure[];
  notes: string[];
  /** Why the check was skipped. */
  reason?: string;
  /** The check could not complete (network failure or a fault in the check itself), not a verdict. */
  error?: string;
  /** connection: the target stopped answering (exit code 2); fault: the check's own code broke. */
  errorKind?: 'connection' | 'fault';
  /** Not run: the run stopped early (--max-failures) before the check started or while it ran (status skip). */
  notRun?: true;
}

/** Why a run ended before every check had run: --max-failures (--fail-fast is 1). */
export interface RunStopped {
  /** The failed MUST checks it stopped after. */
  maxFailures: number;
  /** Checks not run (not started, or cancelled while running). */
  notRun: number;
}

export interface RunSummary {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Failed MUST checks: each one fails the run. */
  mustFailed: number;
  /** Failed SHOULD checks: advisory warnings. */
  shouldFailed: number;
  /** Checks that could not complete. */
  errored: number;
  /** Of the skipped: not run because the run stopped early (--max-failures). */
  notRun: number;
  /** What was judged, and whether --require is met. */
  coverage: Coverage;
}

/** The one stream every reporter consumes. */
export type RunEvent =
  | {
      type: 'run-start';
      runId: string;
      startedAt: string;
      target: RunTarget;
      profile: ProfileName;
      allowMutations: boolean;
      checks: CheckInfo[];
      /** Seed of the generated probes (--seed repeats them). */
      seed?: number;
    }
  | { type: 'check-start'; check: CheckInfo }
  | { type: 'check-pass'; result: CheckResult }
  | { type: 'check-fail'; result: CheckResult }
  | { type: 'check-skip'; result: CheckResult }
  | {
      type: 'run-end';
      runId: string;
      durationMs: number;
      summary: RunSummary;
      exitCode: 0 | 1 | 2;
      results: CheckResult[];
      error?: string;
      /** What the kit had to cut, assume or work around (body caps, a refused Service-Version, ...). */
      notices?: string[];
      /** Set when the run stopped early (--max-failures, --fail-fast). */
      stopped?: RunStopped;
      /** Seed of the generated probes (--seed repeats them). */
      seed?: number;
    };

export type RunEventListener = (event: RunEvent) => void;

export function summarise(results: readonly CheckResult[], require?: CoverageRequirement): RunSummary {
  const failed = results.filter((r) => r.status === 'fail');
  return {
    total: results.length,
    passed: results.filter((r) => r.status === 'pass').length,
    failed: failed.length,
    skipped: results.filter((r) => r.status === 'skip').length,
    mustFailed: failed.filter((r) => r.check.severity === 'MUST').length,
    shouldFailed: failed.filter((r) => r.check.severity === 'SHOULD').length,
    errored: results.filter((r) => r.error !== undefined).length,
    notRun: results.filter((r) => r.notRun).length,
    coverage: coverageOf(results, require),
  };
}

/**
 * The line every reporter prints for a run that stopped early.
 * @example stoppedLine({ maxFailures: 1, notRun: 80 }) // 'stopped after the first MUST failure: 80 checks not run'
 */
export function stoppedLine(s: RunStopped): string {
  const after = s.maxFailures === 1 ? 'the first MUST failure' : `${s.maxFailures} MUST failures`;
  return `stopped after ${after}: ${s.notRun} check${s.notRun === 1 ? '' : 's'} not run`;
}
