import type { Core, SandboxOptions } from '../../simulator/index.ts';
import { AUDIT_SIGNATURE_VIOLATIONS } from './audit-signature-violations.ts';
import { AUDIT_VIOLATIONS } from './audit-violations.ts';
import { BODY_FORM_VIOLATIONS } from './body-form-violations.ts';
import { CALLER_VIOLATIONS } from './caller-violations.ts';
import { CLIENT_FORM_VIOLATIONS } from './client-form-violations.ts';
import { COMPLETENESS_VIOLATIONS } from './completeness-violations.ts';
import { CONSISTENCY_VIOLATIONS, describedInBothFormats } from './consistency-violations.ts';
import { CROSSED_PLACE_VIOLATIONS } from './crossed-place-violations.ts';
import { CROSSED_WRITE_VIOLATIONS } from './crossed-write-violations.ts';
import { DATA_CATCH_VIOLATIONS } from './data-catch-violations.ts';
import { DOCUMENT_NARROWING_VIOLATIONS } from './document-narrowing-violations.ts';
import { DOCUMENT_VIOLATIONS } from './document-violations.ts';
import { EDGE_PLACE_VIOLATIONS } from './edge-place-violations.ts';
import { ENVELOPE_VIOLATIONS } from './envelope-violations.ts';
import { ERROR_CATCH_VIOLATIONS } from './error-catch-violations.ts';
import { FAULT_VIOLATIONS } from './fault-violations.ts';
import { GATEWAY_VIOLATIONS } from './gateway-violations.ts';
import { IDEMPOTENCY_VIOLATIONS } from './idempotency-violations.ts';
import { KEY_VIOLATIONS } from './key-violations.ts';
import { LENIENT_VIOLATIONS } from './lenient-violations.ts';
import { NORMALISER_VIOLATIONS } from './normaliser-violations.ts';
import { OPENAPI_SCHEMA_VIOLATIONS } from './openapi-schema-violations.ts';
import { ORDER_COUNT_VIOLATIONS } from './order-count-violations.ts';
import { OTHER_FORM_VIOLATIONS } from './other-form-violations.ts';
import { PLACE_VIOLATIONS } from './place-violations.ts';
import { RATE_LIMIT_VIOLATIONS } from './rate-limit-violations.ts';
import { REFUSAL_VIOLATIONS } from './refusal-violations.ts';
import { RESPONSE_CATCH_VIOLATIONS } from './response-catch-violations.ts';
import { SEQUENCE_VIOLATIONS } from './sequence-violations.ts';
import { STREAM_EDGE_VIOLATIONS } from './stream-edge-violations.ts';
import { READER_VIOLATIONS, STREAM_VIOLATIONS } from './stream-violations.ts';
import { SURFACE_VIOLATIONS } from './surface-violations.ts';
import { TENANT_WEBHOOK_VIOLATIONS } from './tenant-webhook-violations.ts';
import type { Violation } from './types.ts';
import { WEBHOOK_ATTEMPT_VIOLATIONS } from './webhook-attempt-violations.ts';
import { WEBHOOK_FORM_VIOLATIONS } from './webhook-form-violations.ts';
import { WEBHOOK_VIOLATIONS } from './webhook-violations.ts';

export type { Violation } from './types.ts';

/**
 * Deliberate contract violations, one at a time, for the conformance kit's self-test
 * (`createSandbox(violationOptions(name))`, `ncs serve --violation <name>`). Each names the checks
 * that must catch it. They live with the kit and reach the simulator only through its public
 * options: a wrapper around the core, and the webhook dispatcher's signer or fetch.
 */
export const VIOLATIONS: readonly Violation[] = [
  ...ENVELOPE_VIOLATIONS,
  ...SURFACE_VIOLATIONS,
  ...IDEMPOTENCY_VIOLATIONS,
  ...STREAM_VIOLATIONS,
  ...WEBHOOK_VIOLATIONS,
  ...WEBHOOK_ATTEMPT_VIOLATIONS,
  ...TENANT_WEBHOOK_VIOLATIONS,
  ...AUDIT_VIOLATIONS,
  ...RATE_LIMIT_VIOLATIONS,
  ...AUDIT_SIGNATURE_VIOLATIONS,
  ...ERROR_CATCH_VIOLATIONS,
  ...DATA_CATCH_VIOLATIONS,
  ...RESPONSE_CATCH_VIOLATIONS,
  ...DOCUMENT_VIOLATIONS,
  ...DOCUMENT_NARROWING_VIOLATIONS,
  ...CONSISTENCY_VIOLATIONS,
  ...OPENAPI_SCHEMA_VIOLATIONS,
  ...KEY_VIOLATIONS,
  ...CALLER_VIOLATIONS,
  ...CLIENT_FORM_VIOLATIONS,
  ...PLACE_VIOLATIONS,
  ...CROSSED_PLACE_VIOLATIONS,
  ...NORMALISER_VIOLATIONS,
  ...LENIENT_VIOLATIONS,
  ...GATEWAY_VIOLATIONS,
  ...OTHER_FORM_VIOLATIONS,
  ...WEBHOOK_FORM_VIOLATIONS,
  ...BODY_FORM_VIOLATIONS,
  ...READER_VIOLATIONS,
  ...STREAM_EDGE_VIOLATIONS,
  ...EDGE_PLACE_VIOLATIONS,
  ...ORDER_COUNT_VIOLATIONS,
  ...SEQUENCE_VIOLATIONS,
  ...REFUSAL_VIOLATIONS,
  ...COMPLETENESS_VIOLATIONS,
  ...FAULT_VIOLATIONS,
  ...CROSSED_WRITE_VIOLATIONS,
].map(describedInBothFormats);

export const VIOLATION_NAMES = VIOLATIONS.map((v) => v.name);

/** The violation of this name; an Error listing the known ones otherwise. */
export function findViolation(name: string): Violation {
  const v = VIOLATIONS.find((x) => x.name === name);
  if (!v) throw new Error(`unknown violation ${JSON.stringify(name)}; known: ${VIOLATION_NAMES.join(', ')}`);
  return v;
}

/**
 * A core that breaks one rule of the interface and is otherwise the given one.
 * @example const broken = applyViolation(sandbox.core, 'missing-request-id');
 */
export function applyViolation(core: Core, name: string, base: 'main' | 'alt' = 'main'): Core {
  const v = findViolation(name);
  return { ...core, handle: (req) => v.handle(req, (r) => core.handle(r), core, base) };
}

/**
 * The simulator options that make a sandbox break one rule: a `wrapCore` applying the violation
 * (on both base URLs, or only the alternate one) and, for deliveries, the dispatcher's signer or fetch.
 * @example const sandbox = createSandbox({ ...violationOptions('missing-request-id') });
 */
export function violationOptions(name: string): Pick<SandboxOptions, 'wrapCore' | 'webhooks'> {
  const v = findViolation(name);
  return {
    wrapCore: (core, base) =>
      base === 'alt' || v.where !== 'alt' ? applyViolation(core, v.name, base === 'alt' ? 'alt' : 'main') : core,
    ...(v.webhooks ? { webhooks: v.webhooks } : {}),
  };
}
