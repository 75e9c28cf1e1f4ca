import { z } from 'zod';
import { DateTime } from './date-time.ts';
import { LIMITS } from './limits.ts';

export const IdempotencyKey = z
  .string()
  .regex(new RegExp(LIMITS.idempotencyKey.pattern))
  .describe('Key against double effects: 8 to 128 letters, digits, dot, underscore, colon or hyphen')
  .meta({ examples: ['connection.create:2f9c1a7e-4b1d'] });

export const IdempotencyKeyResult = z
  .object({ idempotencyKey: IdempotencyKey, operation: z.string(), expiresAt: DateTime })
  .meta({ id: 'IdempotencyKeyResult' });

export const CreateIdempotencyKeyBody = z
  .strictObject({
    operation: z
      .string()
      .min(LIMITS.operation.min)
      .max(LIMITS.operation.max)
      .describe('Short name of the operation, e.g. connection.create'),
  })
  .meta({ id: 'CreateIdempotencyKeyRequest' });
