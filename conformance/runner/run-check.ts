import { ERROR_TABLE } from '../../simulator/contract/errors.ts';
import { ConnectionError, RequestCancelled } from '../client/http-client.ts';
import { type CheckDef, infoOf } from './check.ts';
import { createCheckContext, type RunState } from './context.ts';
import { NO_CREDENTIALS } from './coverage.ts';
import type { CheckResult } from './events.ts';
import { toFailure } from './evidence.ts';
import { CheckFailure, type FailureInput, SkipCheck } from './failure.ts';

const RATE_LIMITED = ERROR_TABLE.rate_limited.status;

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

/** How much of a kit fault's message is kept in results and reports. */
const MAX_FAULT_TEXT = 300;

/**
 * A kit fault as results and reports show it: the error's name and the first line of its message, bounded,
 * never a stack trace (it names the kit's files and reached reports whole).
 * @example faultText(new RangeError('Maximum call stack size exceeded')) // 'RangeError: Maximum call stack size exceeded'
 */
export function faultText(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  const first = text.split('\n')[0] ?? '';
  return first.length > MAX_FAULT_TEXT ? `${first.slice(0, MAX_FAULT_TEXT)}…` : first;
}

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

/** Checks whose verdicts are about 429s themselves: rate-limit checks, and rules over every answer of the run. */
const JUDGES_429 = ['rate-limit', 'responses'];

/**
 * Notes said more than once (a read retried until it settles) said once, with how often.
 * @example collapsed(['a', 'b', 'a']) // ['a (2 times)', 'b']
 */
export function collapsed(notes: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const n of notes) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].map(([n, times]) => (times > 1 ? `${n} (${times} times)` : n));
}

/**
 * Takes out of `failures` (in place) those whose answer is 429 rate_limited after the retry policy: the
 * deployment pacing the kit ("configured per access, per tenant and per environment", values not shown)
 * says nothing about the rule the check judges, so such an expectation is not judged, never failed. A
 * check with nothing else failed then skips, saying so. Checks about rate limits and the rules over every
 * answer (a 429 must carry the envelope and headers too) keep them.
 */
function pacedFailures(check: CheckDef, failures: FailureInput[]): { note: string } | undefined {
  if (check.tags.some((t) => JUDGES_429.includes(t))) return undefined;
  const paced = failures.filter((f) => f.exchange?.status === RATE_LIMITED);
  if (paced.length === 0) return undefined;
  failures.splice(0, failures.length, ...failures.filter((f) => !paced.includes(f)));
  return {
    note: `rate limited (429) after the retry policy: ${paced.length} expectation(s) not judged (${paced[0]?.exchange?.method} ${paced[0]?.exchange ? new URL(paced[0].exchange.url).pathname : ''})`,
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
    } else error = `the check itself failed: ${faultText(err)}`;
  } finally {
    await closeStreams();
  }
  if (cancelled) return notRunResult(check);
  const paced = pacedFailures(check, failures);
  if (paced) {
    notes.push(paced.note);
    if (failures.length === 0 && error === undefined && skipped === undefined) skipped = paced.note;
  }
  const durationMs = performance.now() - started;
  const info = infoOf(check);
  if (judged.asMust && info.severity === 'SHOULD') {
    info.severity = 'MUST';
    notes.push(`judged as MUST: ${judged.asMust}`);
  }
  const base = { check: info, durationMs, notes: collapsed(notes).map((n) => run.redactor.text(n)) };
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
