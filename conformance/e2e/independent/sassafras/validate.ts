// Request validation, the way a FluentValidation rule set reads: each rule names the field it refused.
import { ApiError } from './http-kit.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

/** Lengths count characters (code points), not UTF-16 units or bytes. */
function length(s: string): number {
  return [...s].length;
}

function invalid(field: string, rule: string): never {
  throw new ApiError(
    'invalid_request',
    `The field '${field}' is invalid.`,
    `'${field}' ${rule}.`,
    'Check the request against the published OpenAPI description.',
  );
}

/** Unknown fields are refused; with lenient binding they are dropped (so they take no part in the fingerprint). */
export function onlyFields(body: Record<string, unknown>, allowed: readonly string[], lenient = false): void {
  for (const k of Object.keys(body)) {
    if (allowed.includes(k)) continue;
    if (lenient) delete body[k];
    else invalid(k, `is not a field of this request (allowed: ${allowed.join(', ')})`);
  }
}

export function text(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (v === undefined) invalid(field, 'is required');
  if (typeof v !== 'string') invalid(field, 'must be a string');
  const n = length(v);
  if (n < min || n > max) invalid(field, `must be ${min} to ${max} characters long`);
  return v;
}

export function environment(body: Record<string, unknown>, field: string, fallback?: string): string {
  const v = body[field];
  if (v === undefined && fallback !== undefined) return fallback;
  if (v === undefined) invalid(field, 'is required');
  if (typeof v !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(v)) {
    invalid(field, `must be one of ${ENVIRONMENTS.join(', ')}`);
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
  if (v === undefined) invalid(field, 'is required');
  if (!Array.isArray(v)) invalid(field, 'must be an array of strings');
  if (v.length < minItems || v.length > maxItems) invalid(field, `must hold ${minItems} to ${maxItems} items`);
  v.forEach((item, i) => {
    if (typeof item !== 'string') invalid(`${field}[${i}]`, 'must be a string');
    const n = length(item);
    if (n < min || n > max) invalid(`${field}[${i}]`, `must be ${min} to ${max} characters long`);
  });
  return v as string[];
}

/** The Idempotency-Key header: absent, valid, or refused with 400 (a malformed key is not a missing one). */
export function idempotencyKey(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw.join(',') : raw;
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError(
      'invalid_request',
      "The header 'Idempotency-Key' is invalid.",
      'It must match ^[A-Za-z0-9._:-]{8,128}$.',
      'Generate one with POST /api/public/v1/idempotency-keys.',
    );
  }
  return key;
}
