// Bean-validation-like checks of request bodies. Strict types (no coercion of numbers to strings),
// lengths counted in characters (code points), the first violation is reported with its field.
import { ApiError } from './http-kit.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

function invalid(field: string, rule: string): ApiError {
  return new ApiError('invalid_request', `Field ${field} is invalid.`, {
    detail: `${field}: ${rule}`,
    hint: 'Check the request against /api/public/v1/openapi.json.',
  });
}

export function chars(s: string): number {
  return [...s].length;
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
  if (v === undefined || v === null) throw invalid(field, 'is required');
  if (typeof v !== 'string') throw invalid(field, 'must be a string');
  const n = chars(v);
  if (n < min || n > max) throw invalid(field, `length must be ${min} to ${max}`);
  return v;
}

export function environment(body: Record<string, unknown>, field: string, required: boolean): string | undefined {
  const v = body[field];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v))
    throw invalid(field, `must be one of ${ENVIRONMENTS.join(', ')}`);
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
  if (v === undefined || v === null) throw invalid(field, 'is required');
  if (!Array.isArray(v)) throw invalid(field, 'must be an array of strings');
  if (v.length < minItems || v.length > maxItems) throw invalid(field, `must have ${minItems} to ${maxItems} items`);
  v.forEach((item, i) => {
    if (typeof item !== 'string') throw invalid(`${field}[${i}]`, 'must be a string');
    const n = chars(item);
    if (n < min || n > max) throw invalid(`${field}[${i}]`, `length must be ${min} to ${max}`);
  });
  return v as string[];
}

/** HAZEL_STRICT_FIELDS: a body member the schema does not list is refused. */
export function onlyFields(strict: boolean, body: Record<string, unknown>, allowed: string[]): void {
  const extra = Object.keys(body).find((k) => !allowed.includes(k));
  if (strict && extra !== undefined) throw invalid(extra, 'is not a field of this request');
}

/** The Idempotency-Key header: absent → undefined (the caller decides 428), malformed → 400. */
export function idempotencyKeyHeader(headers: Record<string, string | string[] | undefined>): string | undefined {
  const raw = headers['idempotency-key'];
  if (raw === undefined) return undefined;
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  if (!KEY_PATTERN.test(value)) {
    throw new ApiError('invalid_request', 'The Idempotency-Key header is malformed.', {
      hint: 'Use 8 to 128 characters of letters, digits, dot, underscore, colon and hyphen.',
    });
  }
  return value;
}
