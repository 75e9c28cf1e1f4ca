import { z } from 'zod';
import { DateTime } from './date-time.ts';
import { ERROR_CODES } from './errors.ts';
import { SUPPORTED_VERSIONS } from './versions.ts';

export const Meta = z
  .object({
    requestId: z.string().min(1).describe('Identifier of this call, quoted for support queries'),
    version: z.enum(SUPPORTED_VERSIONS).describe('Interface version that answered'),
    at: DateTime,
    idempotencyKey: z.string().optional().describe('The key used for the call'),
    replayed: z.boolean().optional().describe('True when the response comes from an earlier identical operation'),
  })
  .meta({ id: 'Meta' });
export type Meta = z.infer<typeof Meta>;

/** Success envelope around any payload schema. */
export function successEnvelope<T extends z.ZodType>(data: T, id?: string) {
  const schema = z.object({ ok: z.literal(true), data, meta: Meta });
  return id ? schema.meta({ id }) : schema;
}

export const ErrorBody = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  detail: z.string().optional(),
  hint: z.string().optional(),
});

export const FailureEnvelope = z
  .object({ ok: z.literal(false), error: ErrorBody, meta: Meta })
  .meta({ id: 'FailureEnvelope' });
export type FailureEnvelope = z.infer<typeof FailureEnvelope>;
