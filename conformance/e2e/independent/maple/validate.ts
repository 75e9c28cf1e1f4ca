// Request rules of the interface's Limits section; lengths count characters (code points), not bytes.
import { ApiError } from './http-kit.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

const bad = (message: string) =>
  new ApiError('invalid_request', message, 'check the request against the published description');

export function text(body: Record<string, unknown>, field: string, min: number, max: number, required = true) {
  const v = body[field];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string') throw bad(`${field} must be a string`);
  const n = [...v].length;
  if (n < min || n > max) throw bad(`${field} must be ${min} to ${max} characters long`);
  return v;
}

export function environment(body: Record<string, unknown>, required: boolean) {
  const v = body.environment;
  if (v === undefined && !required) return 'sandbox';
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v))
    throw bad(`environment must be one of ${ENVIRONMENTS.join(', ')}`);
  return v;
}

export function capabilityList(body: Record<string, unknown>) {
  const v = body.capabilities;
  if (!Array.isArray(v) || v.length < 1 || v.length > 24) throw bad('capabilities must be an array of 1 to 24 items');
  return v.map((item, i) => {
    if (typeof item !== 'string') throw bad(`capabilities[${i}] must be a string`);
    const n = [...item].length;
    if (n < 2 || n > 120) throw bad(`capabilities[${i}] must be 2 to 120 characters long`);
    return item;
  });
}

/** Refuses unknown fields (only where MAPLE_STRICT_FIELDS switched it on). */
export function onlyFields(body: Record<string, unknown>, allowed: string[]) {
  for (const k of Object.keys(body)) if (!allowed.includes(k)) throw bad(`unknown field ${k}`);
}

export function idempotencyKey(header: string | string[] | undefined, required: boolean) {
  const v = Array.isArray(header) ? header[0] : header;
  if (v === undefined || v === '') {
    if (required)
      throw new ApiError('idempotency_required', 'this call needs an Idempotency-Key header', 'send the key');
    return undefined;
  }
  if (!KEY_PATTERN.test(v)) throw bad('Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$');
  return v;
}
