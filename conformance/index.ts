/** ncs-sandbox/conformance: check any deployment of the Network Connections Service interface. */
// First: on an unsupported Node, importing fails here with one clear line (see node-guard.ts).
import '../simulator/contract/node-guard.ts';
export { runConformance, type RunResult } from './runner/run.ts';
export {
  resolveOptions,
  optionsFromEnv,
  parseRequire,
  UsageError,
  type ConformanceOptions,
  type CoverageRequirement,
} from './runner/options.ts';
export {
  defineCheck,
  type CheckDef,
  type CheckContext,
  type CallOptions,
  type Severity,
  type Requirement,
} from './runner/check.ts';
export { createRegistry, selectChecks } from './runner/registry.ts';
export type { RunEvent, CheckResult, RunSummary, RunTarget, RunStopped } from './runner/events.ts';
export { stoppedLine } from './runner/events.ts';
export type { Failure, FailureInput } from './runner/failure.ts';
export { DeploymentProfile, DEFAULT_DEPLOYMENT_PROFILE, loadDeploymentProfile } from './runner/deployment-profile.ts';
export { INTERFACE_SECTIONS } from './runner/sections.ts';
export { CHECKS } from './checks/index.ts';
export {
  createKitClient,
  ConnectionError,
  RequestCancelled,
  type FetchLike,
  type Exchange,
  type KitClient,
} from './client/http-client.ts';
export {
  INTERFACE_RETRY_POLICY,
  withRetry,
  retryDelayMs,
  parseRetryAfter,
  isRetryable,
  type RetryOptions,
  type RetryPolicy,
} from '../simulator/contract/retry-policy.ts';
export { toCurl } from './client/curl.ts';
export type { SseEvent, SseSession } from './client/sse-stream.ts';
export { startKitReceiver, type KitReceiver, type ReceivedDelivery } from './client/webhook-receiver.ts';
export { createRedactor, type Redactor } from './client/redact.ts';
export { requestClientCredentialsToken, TokenError } from './client/token.ts';
export { createConsoleReporter, shouldUseColor } from './reporters/console.ts';
export { createJsonReporter } from './reporters/json.ts';
export { JsonReport } from './reporters/json-report.ts';
export { createJUnitReporter, toJUnitXml } from './reporters/junit.ts';
export { createHtmlReporter, toHtmlReport } from './reporters/html.ts';
export { createReporters, type Reporter } from './reporters/index.ts';
export { runConformanceCommand } from './runner/run-command.ts';
export { coverageOf, coverageLine, type Coverage } from './runner/coverage.ts';
export { jsonDiff, type DiffEntry } from './runner/json-diff.ts';
export { escapeControl } from './reporters/terminal-escape.ts';
export { discoverTokenEndpoint } from './client/oauth-metadata.ts';
export { listChecks, checksMarkdownTable } from './reporters/check-list.ts';
