// Request validation of ironwood, written from the contract's field tables and Limits. Lengths count
// characters (code points), not bytes; unknown body fields are refused where the contract says "the field
// list above is the schema" (connection creation) and accepted elsewhere (forward compatible, as Azure
// ARM does for additional properties it ignores).
import { ApiError } from './http-util.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

function bad(field: string, why: string): ApiError {
  return new ApiError('invalid_request', `The field '${field}' is invalid.`, `${field}: ${why}`);
}

export function text(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (v === undefined || v === null) throw bad(field, 'is required');
  if (typeof v !== 'string') throw bad(field, 'must be a string');
  const len = [...v].length;
  if (len < min || len > max) throw bad(field, `length must be ${min} to ${max} characters`);
  return v;
}

export function environment(body: Record<string, unknown>, field: string, fallback?: string): string {
  const v = body[field];
  if ((v === undefined || v === null) && fallback !== undefined && v !== null) return fallback;
  if (typeof v !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(v)) {
    throw bad(field, `must be one of ${ENVIRONMENTS.join(', ')}`);
  }
  return v;
}

export function textList(body: Record<string, unknown>, field: string, minItems: number, maxItems: number): string[] {
  const v = body[field];
  if (v === undefined || v === null) throw bad(field, 'is required');
  if (!Array.isArray(v)) throw bad(field, 'must be an array of strings');
  if (v.length < minItems || v.length > maxItems) throw bad(field, `must hold ${minItems} to ${maxItems} items`);
  v.forEach((item, i) => {
    if (typeof item !== 'string') throw bad(`${field}[${i}]`, 'must be a string');
    const len = [...item].length;
    if (len < 2 || len > 120) throw bad(`${field}[${i}]`, 'length must be 2 to 120 characters');
  });
  return v as string[];
}

export function onlyFields(body: Record<string, unknown>, allowed: readonly string[]): void {
  for (const k of Object.keys(body)) {
    if (!allowed.includes(k)) throw bad(k, `is not a field of this request (fields: ${allowed.join(', ')})`);
  }
}

/** The Idempotency-Key header: absent is 428, malformed is 400. */
export function idempotencyKey(headers: Record<string, string>, required: boolean): string | undefined {
  const key = headers['idempotency-key'];
  if (key === undefined || key === '') {
    if (required) {
      throw new ApiError(
        'idempotency_required',
        'An Idempotency-Key header is required for this call.',
        undefined,
        'Send a new key per operation, e.g. one from POST /api/public/v1/idempotency-keys.',
      );
    }
    return undefined;
  }
  if (!KEY_PATTERN.test(key)) {
    throw bad('Idempotency-Key', 'must match ^[A-Za-z0-9._:-]{8,128}$');
  }
  return key;
}

/** A non-negative integer given as decimal digits (cursor, $top); undefined when absent. */
export function nonNegativeInt(value: string | null | undefined, name: string): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (!/^\d{1,15}$/.test(value)) throw bad(name, 'must be an integer, minimum 0');
  return Number(value);
}
