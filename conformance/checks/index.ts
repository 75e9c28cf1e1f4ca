import { createRegistry } from '../runner/registry.ts';
import { authChecks } from './auth.ts';
import { baseUrlChecks } from './base-urls.ts';
import { corsChecks } from './cors.ts';
import { discoveryChecks } from './discovery.ts';
import { envelopeChecks } from './envelope.ts';
import { errorChecks } from './errors.ts';
import { limitChecks } from './limits.ts';
import { versionChecks } from './versions.ts';
import { idempotencyChecks } from './idempotency.ts';
import { idempotencyContentChecks } from './idempotency-content.ts';
import { streamChecks } from './stream.ts';
import { webhookChecks } from './webhooks.ts';
import { rateLimitChecks } from './rate-limit.ts';
import { auditChecks } from './audit.ts';
import { responseChecks } from './responses.ts';
import { provokedErrorChecks } from './provoked-errors.ts';
import { catalogChecks } from './catalog.ts';
import { connectionChecks } from './connections.ts';
import { capabilityChecks } from './capabilities.ts';
import { idempotencyKeyChecks } from './idempotency-keys.ts';
import { webhookReplayChecks } from './webhook-replay.ts';
import { generatedChecks, generatedJudges } from '../generated/index.ts';
import { foreignEntryNotFound } from './tenant-entries.ts';
import { openApiDocumentedChecks } from './openapi-documented.ts';
import { openApiRequiredChecks } from './openapi-required.ts';

/**
 * Every check of the kit, area by area (one file per area). A new area: write checks/<area>.ts
 * exporting its list and add one line here.
 */
export const CHECKS = createRegistry([
  // Derived from the contract (conformance/generated/); first, so their many requests are done before the
  // timed waits of other areas (webhook deliveries) begin. Their judging checks still run last.
  ...generatedChecks,
  ...discoveryChecks,
  ...envelopeChecks,
  ...errorChecks,
  ...authChecks,
  ...limitChecks,
  ...versionChecks,
  ...baseUrlChecks,
  ...corsChecks,
  ...idempotencyChecks,
  ...streamChecks,
  ...webhookChecks,
  ...rateLimitChecks,
  ...auditChecks,
  ...provokedErrorChecks,
  ...catalogChecks,
  ...connectionChecks,
  ...capabilityChecks,
  ...idempotencyKeyChecks,
  ...idempotencyContentChecks,
  ...webhookReplayChecks,
  foreignEntryNotFound,
  ...openApiDocumentedChecks,
  ...openApiRequiredChecks,
  // Last: they judge the exchanges of all the others.
  ...responseChecks,
  ...generatedJudges,
]);
