// Request validation (lengths count Unicode code points, not bytes or UTF-16 units).
import { ENVIRONMENTS } from './catalog.ts';
import { ApiError } from './http-util.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

const chars = (s: string): number => [...s].length;
const bad = (detail: string): ApiError =>
  new ApiError('invalid_request', 'request validation failed', {
    detail,
    hint: 'check the request against /api/public/v1/openapi.json',
  });

export function text(body: Record<string, unknown>, field: string, min: number, max: number): string;
export function text(
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  optional: true,
): string | undefined;
export function text(
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  optional = false,
): string | undefined {
  const v = body[field];
  if (v === undefined && optional) return undefined;
  if (v === undefined || v === null) throw bad(`${field}: required`);
  if (typeof v !== 'string') throw bad(`${field}: must be a string`);
  if (chars(v) < min || chars(v) > max) throw bad(`${field}: length must be ${min} to ${max}`);
  return v;
}

export function environment(body: Record<string, unknown>, field: string, fallback?: string): string {
  const v = body[field];
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v))
    throw bad(`${field}: must be one of ${ENVIRONMENTS.join(', ')}`);
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
  if (!Array.isArray(v)) throw bad(`${field}: must be an array of strings`);
  if (v.length < minItems || v.length > maxItems) throw bad(`${field}: ${minItems} to ${maxItems} items`);
  v.forEach((item, i) => {
    if (typeof item !== 'string') throw bad(`${field}[${i}]: must be a string`);
    if (chars(item) < min || chars(item) > max) throw bad(`${field}[${i}]: length must be ${min} to ${max}`);
  });
  return v as string[];
}

/** Jackson's FAIL_ON_UNKNOWN_PROPERTIES: the field list is the schema. */
export function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  const unknown = Object.keys(body).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) throw bad(`unknown field(s): ${unknown.length}; allowed: ${allowed.join(', ')}`);
}

export function idempotencyKeyHeader(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const v = Array.isArray(raw) ? raw.join(',') : raw;
  if (!KEY_PATTERN.test(v)) throw bad('Idempotency-Key: must match ^[A-Za-z0-9._:-]{8,128}$');
  return v;
}
