import { randomBytes } from 'node:crypto';
import { BASE_PATH, CURRENT_VERSION } from '../../simulator/contract/versions.ts';
import { CHECKS } from '../checks/index.ts';
import { publicGetKey } from '../checks/support/public-get.ts';
import { registerCreatedSecrets } from '../client/created-secrets.ts';
import { ConnectionError, createKitClient, type KitClient } from '../client/http-client.ts';
import { createRedactor, redactDeep } from '../client/redact.ts';
import { TokenError } from '../client/token.ts';
import type { TokenKeeper } from '../client/token-keeper.ts';
import { type CheckDef, infoOf, type ProfileName } from './check.ts';
import type { RunState } from './context.ts';
import {
  type CheckResult,
  type RunEvent,
  type RunStopped,
  type RunSummary,
  type RunTarget,
  summarise,
} from './events.ts';
import { createExchangeLog } from './exchange-log.ts';
import { identify } from './identity.ts';
import { type ConformanceOptions, type ResolvedOptions, resolveOptions, UsageError } from './options.ts';
import { runInPhases } from './phases.ts';
import { credentialsRefused, firstAuthenticatedCall, obtainToken } from './preflight.ts';
import { selectChecks } from './registry.ts';
import { collapsed, notRunResult, requirementSkipReason, runCheck } from './run-check.ts';
import { decideSafety, mutationSkipReason } from './safety.ts';

export interface RunResult {
  runId: string;
  /** Seed of the generated probes (undefined when the options were refused). */
  seed?: number;
  /** 0: every MUST check passed; 1: a MUST check failed; 2: usage or connection error. */
  exitCode: 0 | 1 | 2;
  results: CheckResult[];
  summary: RunSummary;
  durationMs: number;
  /** Why the run could not judge the target (exit code 2). */
  error?: string;
  /** What the kit had to cut, assume or work around. */
  notices: string[];
  /** Set when the run stopped early (maxFailures, failFast): the checks not run are skips marked notRun. */
  stopped?: RunStopped;
}

/**
 * Checks a deployment against the interface and returns the verdict; every step is also sent as a
 * run event to `onEvent` (the reporters' input).
 * @example
 * const { exitCode, results } = await runConformance({ baseUrl: 'http://127.0.0.1:4010', tenant: 'harbour-kitchens', token });
 */
export async function runConformance(options: ConformanceOptions = {}): Promise<RunResult> {
  const started = performance.now();
  const runId = randomBytes(4).toString('hex');
  const emit = (e: RunEvent) => options.onEvent?.(e);
  const notices: string[] = [];
  const redactor = createRedactor();
  let client: KitClient | undefined;
  let require: ResolvedOptions['require'];
  let seed: number | undefined;
  let stopped: RunStopped | undefined;
  const finish = (exitCode: 0 | 1 | 2, checked: CheckResult[], error?: string): RunResult => {
    const stats = client?.stats;
    if (stats?.cappedBodies)
      notices.push(
        `${stats.cappedBodies} answer${stats.cappedBodies === 1 ? ' was' : 's were'} longer than ${stats.maxBodyBytes} bytes: the kit read the first ${stats.maxBodyBytes} bytes of each (--max-body-bytes)`,
      );
    if (stats?.cappedStreams)
      notices.push(
        `${stats.cappedStreams} event stream${stats.cappedStreams === 1 ? '' : 's'} sent more than ${stats.maxStreamBytes} bytes: the kit stopped reading there (--max-stream-bytes)`,
      );
    if (stats?.paced?.times)
      notices.push(
        `the deployment answered 429 ${stats.paced.times} time${stats.paced.times === 1 ? '' : 's'} to calls under the retry policy: every call waited out its Retry-After (the longest ${Math.round(stats.paced.longestMs / 1000)} s), so the run took longer; no verdict was drawn from those 429s`,
      );
    if (stats?.paced?.ignored)
      notices.push(
        `the deployment answered 429 ${stats.paced.ignored} time${stats.paced.ignored === 1 ? '' : 's'} with a Retry-After longer than the kit waits (the longest ${Math.round((stats.paced.longestIgnoredMs ?? 0) / 1000)} s): those calls were not retried and did not hold the run`,
      );
    // Secrets learnt late (a signing key shown once) are taken out of everything reported.
    const results = redactDeep(checked, redactor);
    // A notice said again (a token renewed four times) is said once, with how often.
    const said = redactDeep(collapsed(notices), redactor);
    const summary = summarise(results, require);
    const shortfall = summary.coverage.requirement?.met === false;
    const code = exitCode === 0 && shortfall ? 1 : exitCode;
    const durationMs = performance.now() - started;
    const why = error === undefined ? undefined : redactor.text(error);
    emit({
      type: 'run-end',
      runId,
      durationMs,
      summary,
      exitCode: code,
      results,
      notices: said,
      ...(why ? { error: why } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(stopped ? { stopped } : {}),
    });
    return {
      runId,
      ...(seed !== undefined ? { seed } : {}),
      exitCode: code,
      results,
      summary,
      durationMs,
      notices: said,
      ...(why ? { error: why } : {}),
      ...(stopped ? { stopped } : {}),
    };
  };

  let o: ResolvedOptions;
  let checks: CheckDef[];
  try {
    o = resolveOptions(options);
    seed = o.seed;
    checks = selectChecks(options.checks ?? CHECKS, o.grep);
    if (checks.length === 0) throw new UsageError(`no check matches --grep ${o.grep}`);
  } catch (err) {
    if (err instanceof UsageError) return finish(2, [], err.message);
    throw err;
  }
  require = o.require;

  const exchanges = createExchangeLog();
  // The kit's own preflight calls are judged too; once checks run, their contexts record what they make.
  let preflight = true;
  // The interface's sample calls send Service-Version; a deployment may make it mandatory.
  const defaultHeaders: Record<string, string> = { 'Service-Version': CURRENT_VERSION };
  const walked = new Set<string>();
  const kit = createKitClient({
    timeoutMs: o.timeoutMs,
    defaultHeaders,
    maxBodyBytes: o.maxBodyBytes,
    maxStreamBytes: o.maxStreamBytes,
    onExchange: (ex) => {
      // Registering is idempotent: a large answer seen before (the OpenAPI document, fetched several
      // times a run) is not walked again.
      const large = ex.text.length >= 16 * 1024;
      if (!large || !walked.has(ex.text)) registerCreatedSecrets(ex.json, redactor);
      if (large) walked.add(ex.text);
      if (preflight) exchanges.record('run', ex);
    },
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.retry !== undefined ? { retry: options.retry } : {}),
  });
  client = kit;
  let token: string | undefined;
  let keeper: TokenKeeper | undefined;
  let environment = o.environment;
  const read = new Map<string, Promise<unknown>>();
  try {
    redactor.add(o.adminToken, 'NCS_ADMIN_TOKEN');
    if (o.credentials.kind === 'token') redactor.add(o.credentials.token, 'NCS_TOKEN');
    // Before any verdict: is this the interface at all? An unreachable target, a mistyped base path or
    // another service is a setup problem (exit 2, one line), not a list of failed MUSTs.
    const identity = await identify(kit, o.baseUrl);
    if (!identity.describes) return finish(2, [], identity.reason);
    // The very GETs the checks share (no credentials, the headers they will send): read once a run.
    read.set(publicGetKey(BASE_PATH), Promise.resolve(identity.selfDescription));
    read.set(publicGetKey(`${BASE_PATH}/openapi.json`), Promise.resolve(identity.openApi));
    if (identity.serviceVersionRefused) {
      delete defaultHeaders['Service-Version'];
      notices.push(
        `the deployment refuses calls with Service-Version: ${CURRENT_VERSION}; the kit sends it only where a check names it (see versions.service-version-current)`,
      );
    }
    if (o.altBaseUrl) {
      const alt = await identify(kit, o.altBaseUrl);
      if (!alt.describes) return finish(2, [], `--alt-base-url: ${alt.reason}`);
    }
    ({ token, keeper } = await obtainToken(kit, o, redactor, identity.selfDescription.json, notices));
    redactor.add(token, 'NCS_TOKEN');
    if (token) {
      const first = await firstAuthenticatedCall(kit, o, token);
      // Every authenticated check would fail the same way: one clear setup error instead of a list of MUSTs.
      if (first.refused) return finish(2, [], credentialsRefused(o));
      environment ??= first.environment;
    }
  } catch (err) {
    if (err instanceof ConnectionError || err instanceof TokenError) return finish(2, [], redactor.text(err.message));
    throw err;
  }

  preflight = false;
  const safety = decideSafety({
    ...(o.profile ? { profile: o.profile } : {}),
    ...(environment ? { environment } : {}),
    allowMutations: o.allowMutations,
  });
  const target: RunTarget = {
    baseUrl: o.baseUrl,
    ...(o.altBaseUrl ? { altBaseUrl: o.altBaseUrl } : {}),
    ...(o.tenant ? { tenant: o.tenant } : {}),
    ...(environment ? { environment } : {}),
    credentials: o.credentials.kind,
  };
  const cleanups: RunState['cleanups'] = [];
  // --max-failures: once that many MUST checks failed, no check starts and the running ones are cancelled
  // (their calls, streams and delivery waits end at the signal). Without it no signal is passed at all.
  const maxFailures = o.maxFailures;
  const stop = maxFailures !== undefined ? new AbortController() : undefined;
  let mustFailures = 0;
  const run: RunState = {
    runId,
    client: kit,
    redactor,
    notices,
    declaredFields: o.declaredFields,
    profile: safety.profile as ProfileName,
    deployment: {
      ...o.deployment,
      webhookDeliveryWaitMs: o.webhookTimeoutMs,
      streamMessageWaitMs: o.streamTimeoutMs,
    },
    target: {
      ...target,
      hasToken: token !== undefined,
      hasAdminToken: o.adminToken !== undefined,
      ...(o.otherTenant ? { otherTenant: o.otherTenant } : {}),
      ...(o.foreignTenant ? { foreignTenant: o.foreignTenant } : {}),
    },
    ...(token ? { token } : {}),
    ...(keeper ? { tokens: keeper } : {}),
    ...(o.adminToken ? { adminToken: o.adminToken } : {}),
    memo: read,
    labels: { next: 0 },
    cleanups,
    exchanges,
    seed: o.seed,
    ...(stop ? { stop: stop.signal } : {}),
  };
  emit({
    type: 'run-start',
    runId,
    startedAt: new Date().toISOString(),
    target,
    profile: safety.profile,
    allowMutations: safety.mutationsAllowed,
    checks: checks.map(infoOf),
    seed: o.seed,
  });

  const runOne = async (check: CheckDef) => {
    // Not run: the run stopped before this check's turn (reported with the run's end, not one by one).
    if (stop?.signal.aborted) return notRunResult(check);
    const reason = mutationSkipReason(check, safety) ?? requirementSkipReason(check, run);
    if (reason) {
      const result: CheckResult = {
        check: infoOf(check),
        status: 'skip',
        durationMs: 0,
        failures: [],
        notes: [],
        reason,
      };
      emit({ type: 'check-skip', result });
      return result;
    }
    emit({ type: 'check-start', check: infoOf(check) });
    const result = await runCheck(check, run);
    // Every check-start has its result event: one cut short by the stop ends as a skip marked notRun.
    emit({
      type: result.status === 'pass' ? 'check-pass' : result.status === 'fail' ? 'check-fail' : 'check-skip',
      result,
    });
    // The failures that decide the verdict (exit 1) count: an advisory SHOULD failure does not stop the run.
    if (
      stop &&
      !result.notRun &&
      result.status === 'fail' &&
      result.check.severity === 'MUST' &&
      ++mustFailures >= (maxFailures ?? 0)
    )
      stop.abort();
    return result;
  };
  const exhausts = (c: CheckDef) => c.exhausts?.({ deployment: run.deployment, target: run.target }) === true;
  const cleanUp = async () => {
    for (const cleanup of cleanups.splice(0).reverse())
      await Promise.resolve()
        .then(cleanup)
        .catch(() => undefined);
  };
  // What the checks created is still removed after a stop: the cleanups' calls are not cut short.
  const dropStop = () => {
    if (stop?.signal.aborted && maxFailures !== undefined) delete run.stop;
  };
  const results = await runInPhases(checks, o.concurrency, runOne, exhausts, cleanUp, dropStop);
  if (stop?.signal.aborted && maxFailures !== undefined)
    stopped = { maxFailures, notRun: results.filter((r) => r.notRun).length };
  const connectionLost = results.find((r) => r.errorKind === 'connection');
  const summary = summarise(results);
  if (connectionLost) return finish(2, results, `the target stopped answering during the run: ${connectionLost.error}`);
  return finish(summary.mustFailed > 0 ? 1 : 0, results);
}
