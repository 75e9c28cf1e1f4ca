import { z } from 'zod';

/**
 * The Limits section of the interface, as data. Every schema, the OpenAPI document and the
 * conformance kit's boundary checks read these numbers; nothing else restates them.
 */
export const LIMITS = {
  connectorId: { min: 2, max: 120 },
  capability: { min: 2, max: 120 },
  // "descriptive name, e.g. the name of the venue": free text, whatever characters a venue's name has.
  scopeLabel: { min: 2, max: 120, text: 'descriptive' },
  connectionCapabilities: { minItems: 1, maxItems: 24 },
  // "short name of the operation, e.g. connection.create": a name bounded by length only, no character set.
  operation: { min: 2, max: 80, text: 'name' },
  idempotencyKey: { min: 8, max: 128, pattern: '^[A-Za-z0-9._:-]{8,128}$' },
  cursor: { min: 0 },
  webhookToleranceSeconds: 300,
} as const;

export const IDEMPOTENCY_KEY_PATTERN = new RegExp(LIMITS.idempotencyKey.pattern);

/** A string schema bounded by one row of LIMITS, e.g. boundedString(LIMITS.scopeLabel). */
export const boundedString = (l: { min: number; max: number }) => z.string().min(l.min).max(l.max);
