import { ConnectionError, RequestCancelled } from '../client/http-client.ts';
import { infoOf, type CheckDef } from './check.ts';
import { NO_CREDENTIALS } from './coverage.ts';
import { createCheckContext, type RunState } from './context.ts';
import type { CheckResult } from './events.ts';
import { toFailure } from './evidence.ts';
import { CheckFailure, SkipCheck } from './failure.ts';

/** Why a check cannot run in this run (missing credentials or alternate URL), if so. */
export function requirementSkipReason(check: CheckDef, run: RunState): string | undefined {
  for (const need of check.requires ?? []) {
    if (need === 'token' && !run.token)
      return `${NO_CREDENTIALS}: pass --token, or --client-id and --client-secret (with --tenant)`;
    if (need === 'alt-base-url' && !run.target.altBaseUrl) return 'no alternate base URL: pass --alt-base-url';
    if (need === 'other-tenant' && !run.target.otherTenant)
      return 'no second tenant: pass --other-tenant (a tenant the same credentials may act for)';
    if (need === 'foreign-tenant' && !run.target.foreignTenant)
      return 'no tenant the credentials are not released for: pass --foreign-tenant';
    if (need === 'control-plane' && run.deployment.controlPlanePath === null)
      return 'the deployment profile names no sandbox control plane (controlPlanePath: null)';
    if (need === 'control-plane' && !run.adminToken)
      return 'no admin token for a sandbox control plane: pass --admin-token if the deployment has one (declare controlPlanePath: null in the deployment profile if it has none)';
  }
  return undefined;
}

/** Why a check has no verdict in a run that stopped early (--max-failures). */
export const NOT_RUN_REASON = 'not run: the run stopped early (--max-failures, --fail-fast)';

/**
 * The result of a check the run did not run (or cut short) because it stopped early: a skip marked notRun.
 * @example notRunResult(check) // { status: 'skip', notRun: true, reason: 'not run: ...' }
 */
export function notRunResult(check: CheckDef): CheckResult {
  return {
    check: infoOf(check),
    status: 'skip',
    durationMs: 0,
    failures: [],
    notes: [],
    reason: NOT_RUN_REASON,
    notRun: true,
  };
}

/**
 * Runs one check and turns whatever happened into a result: failures with evidence, a skip, or an
 * error (the check could not complete) kept apart from verdicts.
 */
export async function runCheck(check: CheckDef, run: RunState): Promise<CheckResult> {
  const started = performance.now();
  const { ctx, failures, notes, closeStreams, judged } = createCheckContext(check, run);
  let error: string | undefined;
  let errorKind: 'connection' | 'fault' = 'fault';
  let skipped: string | undefined;
  // Set once the check has settled: a check the run's stop caught mid-way has no verdict (its calls were
  // cut short, so whatever it recorded since is not about the deployment).
  let cancelled = false;
  try {
    await check.run(ctx);
    cancelled = run.stop?.aborted === true;
  } catch (err) {
    cancelled = run.stop?.aborted === true || err instanceof RequestCancelled;
    if (err instanceof CheckFailure) failures.push(err.failure);
    else if (err instanceof SkipCheck) skipped = err.message;
    else if (err instanceof ConnectionError) {
      error = err.message;
      errorKind = 'connection';
    } else error = `the check itself failed: ${(err as Error)?.stack ?? String(err)}`;
  } finally {
    await closeStreams();
  }
  if (cancelled) return notRunResult(check);
  const durationMs = performance.now() - started;
  const info = infoOf(check);
  if (judged.asMust && info.severity === 'SHOULD') {
    info.severity = 'MUST';
    notes.push(`judged as MUST: ${judged.asMust}`);
  }
  const base = { check: info, durationMs, notes: notes.map((n) => run.redactor.text(n)) };
  if (skipped !== undefined && failures.length === 0)
    return { ...base, status: 'skip', failures: [], reason: run.redactor.text(skipped) };
  const result: CheckResult = {
    ...base,
    status: failures.length > 0 || error !== undefined ? 'fail' : 'pass',
    failures: failures.map((f) => toFailure(f, run.redactor)),
  };
  if (error !== undefined) {
    result.error = run.redactor.text(error);
    result.errorKind = errorKind;
  }
  return result;
}
