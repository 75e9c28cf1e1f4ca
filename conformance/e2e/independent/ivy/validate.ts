// Request validation as API Gateway's request validator would do it from the JSON-schema models: lengths
// count characters (code points), not bytes; the first offending field is named in error.detail.
import { ApiError } from './http-kit.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

function chars(s: string): number {
  return [...s].length;
}

function bad(field: string, why: string): ApiError {
  return new ApiError(
    'invalid_request',
    `The field ${field} is invalid.`,
    `${field}: ${why}`,
    'Check the request against openapi.json.',
  );
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
  if (v === undefined) throw bad(field, 'required');
  if (typeof v !== 'string') throw bad(field, 'must be a string');
  const n = chars(v);
  if (n < min || n > max) throw bad(field, `length must be ${min} to ${max} characters`);
  return v;
}

export function environment(body: Record<string, unknown>, field: string, required: boolean): string | undefined {
  const v = body[field];
  if (v === undefined && !required) return undefined;
  if (v === undefined) throw bad(field, 'required');
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) throw bad(field, `must be one of ${ENVIRONMENTS.join(', ')}`);
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
  if (v === undefined) throw bad(field, 'required');
  if (!Array.isArray(v)) throw bad(field, 'must be an array');
  if (v.length < minItems || v.length > maxItems) throw bad(field, `must have ${minItems} to ${maxItems} items`);
  v.forEach((item, i) => {
    if (typeof item !== 'string') throw bad(`${field}[${i}]`, 'must be a string');
    const n = chars(item);
    if (n < min || n > max) throw bad(`${field}[${i}]`, `length must be ${min} to ${max} characters`);
  });
  return v as string[];
}

/** The model of this body has additionalProperties: false. */
export function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(body)) {
    if (!allowed.includes(k)) throw bad(k, 'is not a field of this request');
  }
}

/** A sent Idempotency-Key must match the pattern of the Limits section. */
export function checkKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError(
      'invalid_request',
      'The Idempotency-Key header is invalid.',
      'Idempotency-Key: 8 to 128 characters of A-Z a-z 0-9 . _ : -',
    );
  }
  return key;
}
