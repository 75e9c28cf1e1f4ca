// First: on an unsupported Node, importing fails here with one clear line (see node-guard.ts).
import './node-guard.ts';
export * from './catalog.ts';
export * from './connections.ts';
export * from './discovery.ts';
export * from './events.ts';
export * from './audit.ts';
export * from './webhooks.ts';
export * from './envelope.ts';
export * from './environment.ts';
export * from './errors.ts';
export * from './fixtures.ts';
export * from './idempotency.ts';
export * from './limits.ts';
export * from './route-def.ts';
export * from './route-table.ts';
export * from './scopes.ts';
export * from './versions.ts';
export { buildOpenApiDocument, type OpenApiDocument, type OpenApiOptions } from './openapi.ts';
// The pure functions both halves rely on: signatures, the audit proof, the retry policy, canonical JSON.
export * from './webhook-signature.ts';
export { GENESIS_HASH, hashAuditEntry } from './audit-hash.ts';
export * from './audit-verify.ts';
export * from './retry-policy.ts';
export * from './canonical-json.ts';
export { STREAM_DEFAULTS, WEBHOOK_DEFAULTS, AUDIT_DEFAULTS } from './simulator-defaults.ts';
export { ReadyFile, ReadyFileError, readReadyFile, waitForReadyFile, writeReadyFile } from './ready-file.ts';
