// Request validation from the interface's Limits table (lengths count characters, not bytes).
import { ApiError } from './http-kit.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

function chars(s: string): number {
  return [...s].length;
}

export function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  const extra = Object.keys(body).filter((k) => !allowed.includes(k));
  if (extra.length > 0)
    throw new ApiError('invalid_request', `unknown field: ${extra[0]}`, `allowed fields: ${allowed.join(', ')}`);
}

export function text(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (v === undefined) throw new ApiError('invalid_request', `${field} is required`);
  if (typeof v !== 'string') throw new ApiError('invalid_request', `${field} must be a string`);
  const n = chars(v);
  if (n < min || n > max) throw new ApiError('invalid_request', `${field} must be ${min} to ${max} characters long`);
  return v;
}

export function environment(body: Record<string, unknown>, field: string, fallback?: string): string {
  const v = body[field];
  if (v === undefined && fallback) return fallback;
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) {
    throw new ApiError('invalid_request', `${field} must be one of ${ENVIRONMENTS.join(', ')}`);
  }
  return v;
}

export function textList(body: Record<string, unknown>, field: string, minItems: number, maxItems: number): string[] {
  const v = body[field];
  if (v === undefined) throw new ApiError('invalid_request', `${field} is required`);
  if (!Array.isArray(v)) throw new ApiError('invalid_request', `${field} must be an array of strings`);
  if (v.length < minItems || v.length > maxItems) {
    throw new ApiError('invalid_request', `${field} must have ${minItems} to ${maxItems} items`);
  }
  for (const item of v) {
    if (typeof item !== 'string' || chars(item) < 2 || chars(item) > 120) {
      throw new ApiError('invalid_request', `every item of ${field} must be a string of 2 to 120 characters`);
    }
  }
  return v as string[];
}

/** Non-negative whole number in a query or header value, or undefined when absent. */
export function wholeNumber(raw: string | null | undefined, name: string): number | undefined {
  if (raw === null || raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw new ApiError('invalid_request', `${name} must be a whole number of at least 0`);
  return Number(raw);
}
