import { z } from 'zod';
import { DateTime } from '../../../simulator/contract/date-time.ts';
import { ENVIRONMENTS } from '../../../simulator/contract/environment.ts';

/**
 * Records exactly as the interface's field tables list them: every listed field with its type,
 * additional fields allowed, nothing the interface leaves open (state values, id formats) fixed.
 */
export const InterfaceConnection = z.looseObject({
  id: z.string(),
  connectorId: z.string(),
  environment: z.enum(ENVIRONMENTS),
  scopeLabel: z.string(),
  state: z.string(),
  capabilities: z.array(
    z.looseObject({ capability: z.string(), critical: z.boolean(), idempotencyRequired: z.boolean() }),
  ),
  nextStep: z.string(),
  createdAt: DateTime,
});

export const InterfaceIdempotencyKeyResult = z.looseObject({
  idempotencyKey: z.string(),
  operation: z.string(),
  expiresAt: DateTime,
});

/** "path: message; …" of the first few issues. */
export const zodIssues = (e: z.ZodError) =>
  e.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
