// Body and query validation, the way a Rails model validates: lengths count characters (code points),
// not bytes; every refusal is 400 invalid_request naming the field. Unknown body fields are ignored
// (strong parameters drop them), but a missing required field is always refused.
import { invalid } from './http-kit.ts';
import { ENVIRONMENTS, KEY_PATTERN } from './types.ts';

const chars = (s: string): number => [...s].length;

export function text(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const value = body[field];
  if (value === undefined || value === null) throw invalid(`${field} is required.`, `field: ${field}`);
  if (typeof value !== 'string') throw invalid(`${field} must be a string.`, `field: ${field}`);
  const n = chars(value);
  if (n < min || n > max) throw invalid(`${field} must be ${min} to ${max} characters long.`, `field: ${field}`);
  return value;
}

export function environment(body: Record<string, unknown>, field: string, fallback?: string): string {
  const value = body[field];
  if ((value === undefined || value === null) && fallback !== undefined && value === undefined) return fallback;
  if (typeof value !== 'string' || !ENVIRONMENTS.includes(value)) {
    throw invalid(`${field} must be one of ${ENVIRONMENTS.join(', ')}.`, `field: ${field}`);
  }
  return value;
}

export function textList(body: Record<string, unknown>, field: string, minItems: number, maxItems: number): string[] {
  const value = body[field];
  if (value === undefined || value === null) throw invalid(`${field} is required.`, `field: ${field}`);
  if (!Array.isArray(value)) throw invalid(`${field} must be an array of strings.`, `field: ${field}`);
  if (value.length < minItems || value.length > maxItems) {
    throw invalid(`${field} must have ${minItems} to ${maxItems} items.`, `field: ${field}`);
  }
  value.forEach((item, i) => {
    if (typeof item !== 'string') throw invalid(`${field}[${i}] must be a string.`, `field: ${field}`);
    if (chars(item) < 2 || chars(item) > 120) {
      throw invalid(`${field}[${i}] must be 2 to 120 characters long.`, `field: ${field}`);
    }
  });
  return value as string[];
}

export function url(body: Record<string, unknown>, field: string): string {
  const value = text(body, field, 8, 2048);
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw invalid(`${field} must be an absolute http(s) URL.`, `field: ${field}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalid(`${field} must be an absolute http(s) URL.`, `field: ${field}`);
  }
  return value;
}

// Idempotency-Key: optional or required by the caller; a key that does not fit the pattern is refused.
export function idempotencyKeyHeader(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  if (!KEY_PATTERN.test(value)) {
    throw invalid('Idempotency-Key does not fit the pattern.', 'pattern: ^[A-Za-z0-9._:-]{8,128}$');
  }
  return value;
}

// Whole-number query values (cursor, page, per_page, limit); blank counts as absent.
export function wholeNumber(raw: string | null, name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  if (raw === null || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) throw invalid(`${name} must be a whole number of at least ${min}.`, `parameter: ${name}`);
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw invalid(`${name} must be a whole number from ${min} to ${max}.`, `parameter: ${name}`);
  }
  return n;
}

// Catalog filters: a blank value means no filter (params[:category].presence).
export function filter(params: URLSearchParams, name: string): string | undefined {
  const value = params.get(name);
  return value === null || value === '' ? undefined : value;
}
