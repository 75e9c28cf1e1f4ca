// Strict body validation: every listed field checked, unknown fields refused (strict field validation).
import { ApiError } from './http-kit.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

/** Lengths count characters (code points), not UTF-16 units or bytes. */
export function charLength(s: string): number {
  return Array.from(s).length;
}

export function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(body)) {
    if (!allowed.includes(k)) {
      throw new ApiError(
        'invalid_request',
        'unknown field in body',
        `field ${k} is not part of the schema`,
        `allowed: ${allowed.join(', ')}`,
      );
    }
  }
}

export function text(
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  required = true,
): string | undefined {
  const v = body[field];
  if (v === undefined && !required) return undefined;
  if (v === undefined) throw new ApiError('invalid_request', 'required field missing', `field ${field} is required`);
  if (typeof v !== 'string')
    throw new ApiError('invalid_request', 'wrong data type', `field ${field} must be a string`);
  const n = charLength(v);
  if (n < min || n > max) {
    throw new ApiError(
      'invalid_request',
      'field out of range',
      `field ${field} must be ${min} to ${max} characters long`,
    );
  }
  return v;
}

export function environment(body: Record<string, unknown>, field: string, required: boolean): string | undefined {
  const v = body[field];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) {
    throw new ApiError(
      'invalid_request',
      'invalid environment',
      `field ${field} must be one of ${ENVIRONMENTS.join(', ')}`,
    );
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
  if (v === undefined) throw new ApiError('invalid_request', 'required field missing', `field ${field} is required`);
  if (!Array.isArray(v))
    throw new ApiError('invalid_request', 'wrong data type', `field ${field} must be an array of strings`);
  if (v.length < minItems || v.length > maxItems) {
    throw new ApiError(
      'invalid_request',
      'field out of range',
      `field ${field} must have ${minItems} to ${maxItems} items`,
    );
  }
  v.forEach((item, i) => {
    if (typeof item !== 'string')
      throw new ApiError('invalid_request', 'wrong data type', `${field}[${i}] must be a string`);
    const n = charLength(item);
    if (n < min || n > max)
      throw new ApiError(
        'invalid_request',
        'field out of range',
        `${field}[${i}] must be ${min} to ${max} characters long`,
      );
  });
  return v as string[];
}
