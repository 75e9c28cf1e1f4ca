// Field checks of the contract's request bodies. Lengths count characters (code points), not bytes.
import { ApiError } from './http-util.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

function bad(field: string, why: string): ApiError {
  return new ApiError(
    'invalid_request',
    `Invalid value for field "${field}".`,
    `${field}: ${why}`,
    'Check the request against the published OpenAPI description.',
  );
}

export function text(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (v === undefined || v === null) throw bad(field, 'required');
  if (typeof v !== 'string') throw bad(field, 'must be a string');
  const n = [...v].length;
  if (n < min || n > max) throw bad(field, `length must be ${min} to ${max}`);
  return v;
}

export function environment(body: Record<string, unknown>, field: string, fallback?: string): string {
  const v = body[field];
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) throw bad(field, `one of ${ENVIRONMENTS.join(', ')}`);
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
  if (v === undefined || v === null) throw bad(field, 'required');
  if (!Array.isArray(v)) throw bad(field, 'must be an array of strings');
  if (v.length < minItems || v.length > maxItems) throw bad(field, `${minItems} to ${maxItems} items`);
  v.forEach((item, i) => {
    if (typeof item !== 'string') throw bad(`${field}[${i}]`, 'must be a string');
    const n = [...item].length;
    if (n < min || n > max) throw bad(`${field}[${i}]`, `length must be ${min} to ${max}`);
  });
  return v as string[];
}

/** Only listed fields: proto3 transcoding in ESPv2 refuses a field the message does not have. */
export function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(body)) {
    if (!allowed.includes(k)) throw bad(k, 'unknown field');
  }
}
