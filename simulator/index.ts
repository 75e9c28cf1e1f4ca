/** ncs-sandbox: the Network Connections Service simulator as a library. */
export { createSandbox, DEFAULT_BASE_URL, DEFAULT_ALT_BASE_URL, type Sandbox, type SandboxOptions } from './sandbox.ts';
export { serve, type ServeOptions, type RunningServer } from './adapters/node-server.ts';
export { createMswHandlers, fromFetchRequest, toFetchResponse } from './adapters/msw.ts';
export { createNodeListener } from './adapters/node-http.ts';
export { createCore, type Core } from './core/create-core.ts';
export type { PlainRequest, PlainResponse, StreamSink, StreamSource } from './core/types.ts';
export { buildOpenApiDocument } from './contract/openapi.ts';
export { loadFixtures, FixtureError, DEFAULT_FIXTURES_PATH } from './state/fixtures-loader.ts';
export { createClock, type Clock } from './state/clock.ts';
export * from './contract/index.ts';
export { signWebhook, verifyWebhook, parseSignatureHeader, DEFAULT_SIGNATURE_HEADER, type VerifyResult, type VerifyOptions, type VerifyFailureReason } from './webhooks/signature.ts';
export { verifyAuditRange, type AuditVerifyResult, type AuditFailureReason } from './audit/verify.ts';
export { canonicalJson, CANONICALIZATION } from './audit/canonical-json.ts';
export { GENESIS_HASH, hashAuditEntry, type AuditEntry, type AuditProof } from './audit/hash-chain.ts';
export { STREAM_DEFAULTS, WEBHOOK_DEFAULTS, AUDIT_DEFAULTS } from './contract/simulator-defaults.ts';
