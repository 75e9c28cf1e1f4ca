import type { Core } from '../app/create-core.ts';
import { ENVELOPE_VIOLATIONS } from './envelope-violations.ts';
import { SURFACE_VIOLATIONS } from './surface-violations.ts';
import { IDEMPOTENCY_VIOLATIONS } from './idempotency-violations.ts';
import { STREAM_VIOLATIONS } from './stream-violations.ts';
import { WEBHOOK_VIOLATIONS } from './webhook-violations.ts';
import { AUDIT_RATE_LIMIT_VIOLATIONS } from './audit-rate-limit-violations.ts';
import type { Violation } from './types.ts';

export type { Violation } from './types.ts';

/**
 * Deliberate contract violations, one at a time, for the conformance kit's self-test
 * (`createSandbox({ violation })`, `ncs serve --violation <name>`). Each names the checks that
 * must catch it.
 */
export const VIOLATIONS: readonly Violation[] = [
  ...ENVELOPE_VIOLATIONS,
  ...SURFACE_VIOLATIONS,
  ...IDEMPOTENCY_VIOLATIONS,
  ...STREAM_VIOLATIONS,
  ...WEBHOOK_VIOLATIONS,
  ...AUDIT_RATE_LIMIT_VIOLATIONS,
];

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
export function applyViolation(core: Core, name: string): Core {
  const v = findViolation(name);
  return { ...core, handle: (req) => v.handle(req, (r) => core.handle(r), core) };
}
