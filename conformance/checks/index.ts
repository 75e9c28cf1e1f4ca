import { generatedChecks, generatedJudges } from '../generated/index.ts';
import { createRegistry } from '../runner/registry.ts';
import { auditChecks } from './audit.ts';
import { authChecks } from './auth.ts';
import { baseUrlChecks } from './base-urls.ts';
import { capabilityChecks } from './capabilities.ts';
import { checkKeyNeutral } from './capabilities-key-neutral.ts';
import { catalogChecks } from './catalog.ts';
import { connectionChecks } from './connections.ts';
import { corsChecks } from './cors.ts';
import { createdAtChecks } from './created-at.ts';
import { discoveryChecks } from './discovery.ts';
import { documentedReads } from './documented-reads.ts';
import { envelopeChecks } from './envelope.ts';
import { envelopeBeyondContract, rateLimitHeadersBeyond } from './envelope-beyond.ts';
import { errorChecks } from './errors.ts';
import { retryAfterFault } from './fault-retries.ts';
import { filterValuesAlike } from './filter-values.ts';
import { idempotencyChecks } from './idempotency.ts';
import { concurrent } from './idempotency-concurrent.ts';
import { idempotencyContentChecks } from './idempotency-content.ts';
import { freshKeyNoConflict } from './idempotency-fresh-conflict.ts';
import { idempotencyKeyChecks } from './idempotency-keys.ts';
import { refusalRepeated } from './idempotency-refusal-repeated.ts';
import { tenantScope } from './idempotency-tenant.ts';
import { limitChecks } from './limits.ts';
import { freeTextAccepted } from './limits-free-text.ts';
import { metaAtTogether } from './meta-at.ts';
import { metaAtInOrder } from './meta-at-order.ts';
import { openApiAcceptAlike } from './openapi-accept.ts';
import { openApiConsistencyChecks } from './openapi-consistency.ts';
import { contractNotDeprecated } from './openapi-deprecated.ts';
import { openApiDocumentedChecks } from './openapi-documented.ts';
import { examplesMatch } from './openapi-examples.ts';
import { operationsServed } from './openapi-operations-served.ts';
import { parameterTypes } from './openapi-parameter-types.ts';
import { openApiRequestChecks } from './openapi-requests.ts';
import { openApiRequiredChecks } from './openapi-required.ts';
import { openApiYamlChecks } from './openapi-yaml.ts';
import { placesAlike } from './places-alike.ts';
import { provokedErrorChecks } from './provoked-errors.ts';
import { rateLimitChecks } from './rate-limit.ts';
import { limitSteady } from './rate-limit-steady.ts';
import { remainingSteps, remainingStepsWrites } from './rate-limit-steps.ts';
import { bodyFormsAlike } from './request-body-forms.ts';
import { clientHeadersAlike } from './request-client-headers.ts';
import { requestFormChecks } from './request-forms.ts';
import { otherFormChecks } from './request-other-forms.ts';
import { responseChecks } from './responses.ts';
import { statedKeyRuleChecks } from './stated-key-rule.ts';
import { streamChecks } from './stream.ts';
import { streamEdgeChecks } from './stream-edges.ts';
import { lastEventIdKept } from './stream-last-id.ts';
import { everyReader } from './stream-readers.ts';
import { foreignEntryNotFound } from './tenant-entries.ts';
import { notFoundNamesNoOtherTenant } from './tenant-named.ts';
import { versionChecks } from './versions.ts';
import { earlierAlike } from './versions-earlier.ts';
import { webhookKeyChecks } from './webhook-keys.ts';
import { webhookReplayChecks } from './webhook-replay.ts';
import { tenantDeliveries } from './webhook-tenant.ts';
import { webhookChecks } from './webhooks.ts';
import { deliveryLogComplete } from './webhooks-log-complete.ts';
import { webhookLogFormChecks } from './webhooks-log-forms.ts';
import { registrationForms } from './webhooks-registration-forms.ts';

/**
 * Every check of the kit, area by area (one file per area). A new area: write checks/<area>.ts
 * exporting its list and add one line here.
 */
export const CHECKS = createRegistry([
  // Derived from the contract (conformance/generated/); first, so their many requests are done before the
  // timed waits of other areas (webhook deliveries) begin. Their judging checks still run last.
  ...generatedChecks,
  ...discoveryChecks,
  ...statedKeyRuleChecks,
  ...envelopeChecks,
  ...errorChecks,
  ...authChecks,
  ...limitChecks,
  freeTextAccepted,
  ...versionChecks,
  ...baseUrlChecks,
  ...corsChecks,
  ...idempotencyChecks,
  freshKeyNoConflict,
  concurrent,
  tenantScope,
  ...streamChecks,
  ...streamEdgeChecks,
  everyReader,
  ...webhookChecks,
  ...rateLimitChecks,
  limitSteady,
  ...auditChecks,
  ...provokedErrorChecks,
  retryAfterFault,
  ...catalogChecks,
  ...connectionChecks,
  ...capabilityChecks,
  checkKeyNeutral,
  remainingSteps,
  remainingStepsWrites,
  refusalRepeated,
  ...idempotencyKeyChecks,
  ...idempotencyContentChecks,
  ...webhookReplayChecks,
  ...webhookKeyChecks,
  tenantDeliveries,
  registrationForms,
  ...webhookLogFormChecks,
  deliveryLogComplete,
  ...requestFormChecks,
  bodyFormsAlike,
  clientHeadersAlike,
  filterValuesAlike,
  ...otherFormChecks,
  foreignEntryNotFound,
  notFoundNamesNoOtherTenant,
  ...openApiDocumentedChecks,
  ...openApiRequiredChecks,
  ...openApiRequestChecks,
  parameterTypes,
  examplesMatch,
  contractNotDeprecated,
  envelopeBeyondContract,
  rateLimitHeadersBeyond,
  metaAtTogether,
  metaAtInOrder,
  lastEventIdKept,
  earlierAlike,
  operationsServed,
  documentedReads,
  ...openApiConsistencyChecks,
  ...openApiYamlChecks,
  openApiAcceptAlike,
  ...createdAtChecks,
  // Its creations go on for seconds in every place: started last of the calling checks, so the checks comparing
  // reads of the two addresses (base-urls.alt-identical) have read while the tenant's data stood still.
  placesAlike,
  // Last: they judge the exchanges of all the others.
  ...responseChecks,
  ...generatedJudges,
]);
