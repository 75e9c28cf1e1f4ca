// Strong-parameters-like validation: the listed fields are checked, unknown fields are ignored (Rails
// permits and drops them), lengths count characters, not bytes.
import { ApiError } from './http-kit.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

function chars(s: string): number {
  return [...s].length;
}

export function text(body: Record<string, unknown>, name: string, min: number, max: number): string {
  const v = body[name];
  if (v === undefined || v === null)
    throw new ApiError('invalid_request', `${name} is required`, `param is missing: ${name}`);
  if (typeof v !== 'string') throw new ApiError('invalid_request', `${name} must be a string`);
  const n = chars(v);
  if (n < min || n > max)
    throw new ApiError('invalid_request', `${name} must be ${min} to ${max} characters long`, `${name} has ${n}`);
  return v;
}

export function environment(body: Record<string, unknown>, name: string, fallback?: string): string {
  const v = body[name];
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) {
    throw new ApiError('invalid_request', `${name} must be one of ${ENVIRONMENTS.join(', ')}`);
  }
  return v;
}

export function textList(body: Record<string, unknown>, name: string, minItems: number, maxItems: number): string[] {
  const v = body[name];
  if (v === undefined || v === null) throw new ApiError('invalid_request', `${name} is required`);
  if (!Array.isArray(v)) throw new ApiError('invalid_request', `${name} must be an array of strings`);
  if (v.length < minItems || v.length > maxItems) {
    throw new ApiError(
      'invalid_request',
      `${name} must have ${minItems} to ${maxItems} items`,
      `${name} has ${v.length}`,
    );
  }
  return v.map((item, i) => {
    if (typeof item !== 'string') throw new ApiError('invalid_request', `${name}[${i}] must be a string`);
    const n = chars(item);
    if (n < 2 || n > 120) throw new ApiError('invalid_request', `${name}[${i}] must be 2 to 120 characters long`);
    return item;
  });
}

/** The Idempotency-Key header: undefined when absent, 400 when present but not of the pattern. */
export function idempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const v = Array.isArray(header) ? header.join(',') : header;
  if (!KEY_PATTERN.test(v)) {
    throw new ApiError('invalid_request', 'Idempotency-Key is malformed', 'pattern ^[A-Za-z0-9._:-]{8,128}$');
  }
  return v;
}
