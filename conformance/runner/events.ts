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
    coverage: coverageOf(results, require),
  };
}
