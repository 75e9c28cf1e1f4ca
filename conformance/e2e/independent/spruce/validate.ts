// Request validation in the spirit of a NestJS ValidationPipe with whitelist: true: listed fields are
// checked strictly (no type coercion), unknown fields are stripped, never echoed back.
import { ApiError } from './http-kit.ts';
import { charLength, ENVIRONMENTS } from './util.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

function bad(target: string, message: string): ApiError {
  return new ApiError('invalid_request', message, {
    target,
    hint: 'Check the request against the published description.',
  });
}

export function text(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (v === undefined) throw bad(field, `The field ${field} is required.`);
  if (typeof v !== 'string') throw bad(field, `The field ${field} must be a string.`);
  const n = charLength(v);
  if (n < min || n > max) throw bad(field, `The field ${field} must be ${min} to ${max} characters long.`);
  return v;
}

export function environment(body: Record<string, unknown>, field: string, fallback?: string): string {
  const v = body[field];
  if (v === undefined && fallback !== undefined) return fallback;
  if (v === undefined) throw bad(field, `The field ${field} is required.`);
  if (typeof v !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(v)) {
    throw bad(field, `The field ${field} must be one of ${ENVIRONMENTS.join(', ')}.`);
  }
  return v;
}

export function textList(
  body: Record<string, unknown>,
  field: string,
  minItems: number,
  maxItems: number,
  min: number,
  max: number,
): string[] {
  const v = body[field];
  if (v === undefined) throw bad(field, `The field ${field} is required.`);
  if (!Array.isArray(v)) throw bad(field, `The field ${field} must be an array.`);
  if (v.length < minItems || v.length > maxItems)
    throw bad(field, `The field ${field} must have ${minItems} to ${maxItems} items.`);
  v.forEach((item, i) => {
    if (typeof item !== 'string') throw bad(`${field}[${i}]`, `Every item of ${field} must be a string.`);
    const n = charLength(item);
    if (n < min || n > max)
      throw bad(`${field}[${i}]`, `Every item of ${field} must be ${min} to ${max} characters long.`);
  });
  return v as string[];
}

/** The Idempotency-Key header: undefined when absent, ApiError when malformed. */
export function idempotencyKey(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const v = Array.isArray(raw) ? raw.join(',') : raw;
  if (!KEY_PATTERN.test(v)) {
    throw new ApiError('invalid_request', 'The Idempotency-Key header is malformed.', {
      target: 'Idempotency-Key',
      hint: 'Use 8 to 128 characters of letters, digits, dot, underscore, colon or hyphen.',
    });
  }
  return v;
}
