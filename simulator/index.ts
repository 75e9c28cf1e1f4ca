/** ncs-sandbox: the Network Connections Service simulator as a library. */
// First: on an unsupported Node, importing fails here with one clear line (see node-guard.ts).
import './contract/node-guard.ts';
export {
  createSandbox,
  DEFAULT_BASE_URL,
  DEFAULT_ALT_BASE_URL,
  type Sandbox,
  type SandboxOptions,
} from './app/sandbox.ts';
export { serve, type ServeOptions, type RunningServer } from './app/serve.ts';
export { createMswHandlers, fromFetchRequest, toFetchResponse } from './adapters/msw.ts';
export { createNodeListener } from './adapters/node-http.ts';
export { createCore, type Core } from './app/create-core.ts';
export type { DrainTarget, PlainRequest, PlainResponse, StreamSink, StreamSource, StreamStop } from './core/types.ts';
export { drainedTo, stopStream } from './core/stream-stop.ts';
export { buildOpenApiDocument } from './contract/openapi.ts';
export { loadFixtures, FixtureError, DEFAULT_FIXTURES_PATH } from './app/fixtures-loader.ts';
export { createClock, type Clock } from './lib/clock.ts';
export * from './contract/index.ts';
export { createAuthServerMount, type AuthServerOptions } from './auth-server/mount.ts';
export type { Mount, MountHandler } from './core/mount.ts';
export type { Reply, DataReply, RawReply } from './core/reply.ts';
export { OAUTH_PATHS } from './auth-server/metadata.ts';
export { RATE_LIMIT_PRESETS, type RateLimitSettings } from './services/rate-limit-service.ts';
export { requestToken, TokenRequestError } from './auth-server/token-client.ts';
export {
  signWebhook,
  verifyWebhook,
  parseSignatureHeader,
  DEFAULT_SIGNATURE_HEADER,
  type VerifyResult,
  type VerifyOptions,
  type VerifyFailureReason,
} from './contract/webhook-signature.ts';
export { verifyAuditRange, type AuditVerifyResult, type AuditFailureReason } from './contract/audit-verify.ts';
export { canonicalJson, CANONICALIZATION } from './contract/canonical-json.ts';
export { GENESIS_HASH, hashAuditEntry, type AuditEntry, type AuditProof } from './contract/audit-hash.ts';
export { STREAM_DEFAULTS, WEBHOOK_DEFAULTS, AUDIT_DEFAULTS } from './contract/simulator-defaults.ts';
export {
  INTERFACE_RETRY_POLICY,
  withRetry,
  retryDelayMs,
  parseRetryAfter,
  type RetryOptions,
} from './contract/retry-policy.ts';
export { createInspector, INSPECTOR_PREFIX, type Inspector, type InspectorOptions } from './inspector/index.ts';
export type { JournalDetail, JournalFilter, JournalSummary } from './inspector/journal.ts';
export {
  CLIENT_RULES,
  createClientVerdicts,
  type ClientReport,
  type ClientRule,
  type ClientVerdicts,
  type Evidence,
  type RuleReport,
  type RuleStatus,
} from './client-rules/index.ts';
export { runReceiverCheck, type ReceiverCheckCase, type ReceiverCheckResult } from './webhooks/receiver-check.ts';
