// Body validation in the manner of Play JSON Reads: every field checked, the first problem named by its JSON
// path (never by the value sent, so an error quotes nothing of the request). Lengths count code points.
import { ENVIRONMENTS } from './catalog.ts';
import { ApiError } from './http-kit.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

const length = (s: string): number => [...s].length;

export function text(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (v === undefined) throw new ApiError('invalid_request', `${field}: required field missing.`);
  if (typeof v !== 'string') throw new ApiError('invalid_request', `${field}: expected a string.`);
  const n = length(v);
  if (n < min || n > max)
    throw new ApiError('invalid_request', `${field}: length must be ${min} to ${max} characters.`);
  return v;
}

export function environment(body: Record<string, unknown>, field: string, fallback?: string): string {
  const v = body[field];
  if (v === undefined && fallback !== undefined) return fallback;
  if (v === undefined) throw new ApiError('invalid_request', `${field}: required field missing.`);
  if (typeof v !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(v)) {
    throw new ApiError('invalid_request', `${field}: expected one of ${ENVIRONMENTS.join(', ')}.`);
  }
  return v;
}

export function textList(
  body: Record<string, unknown>,
  field: string,
  items: [number, number],
  each: [number, number],
): string[] {
  const v = body[field];
  if (v === undefined) throw new ApiError('invalid_request', `${field}: required field missing.`);
  if (!Array.isArray(v)) throw new ApiError('invalid_request', `${field}: expected an array of strings.`);
  if (v.length < items[0] || v.length > items[1]) {
    throw new ApiError('invalid_request', `${field}: ${items[0]} to ${items[1]} items expected.`);
  }
  v.forEach((item, i) => {
    if (typeof item !== 'string') throw new ApiError('invalid_request', `${field}[${i}]: expected a string.`);
    const n = length(item);
    if (n < each[0] || n > each[1]) {
      throw new ApiError('invalid_request', `${field}[${i}]: length must be ${each[0]} to ${each[1]} characters.`);
    }
  });
  return v as string[];
}

/** "The field list above is the schema": POST /connections refuses fields it does not list. */
export function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  const extra = Object.keys(body).filter((k) => !allowed.includes(k));
  if (extra.length > 0) {
    throw new ApiError('invalid_request', `Unknown field(s) in the body; the schema lists only ${allowed.join(', ')}.`);
  }
}

/** The Idempotency-Key header of a "yes + key" call: missing 428, malformed 400. */
export function idempotencyKey(header: string | string[] | undefined): string {
  if (header === undefined) {
    throw new ApiError('idempotency_required', 'The Idempotency-Key header is missing.');
  }
  const v = Array.isArray(header) ? header.join(',') : header;
  if (!KEY_PATTERN.test(v)) {
    throw new ApiError('invalid_request', 'Idempotency-Key: 8 to 128 characters of A-Z a-z 0-9 . _ : - expected.');
  }
  return v;
}

/** A receiver address: an absolute http(s) URL. */
export function receiverUrl(body: Record<string, unknown>): string {
  const v = text(body, 'url', 8, 2048);
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ApiError('invalid_request', 'url: expected an absolute http or https URL.');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new ApiError('invalid_request', 'url: expected an absolute http or https URL.');
  }
  if (u.username || u.password) throw new ApiError('invalid_request', 'url: credentials in the URL are not accepted.');
  return v;
}
