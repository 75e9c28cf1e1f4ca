// Field validation in the spirit of an Ecto changeset: every rule of the interface's Limits table, lengths
// counted in characters (code points), the body never echoed in the refusal.
import { invalid } from './http-kit.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

const chars = (s: string): number => Array.from(s).length;

export function text(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (v === undefined || v === null) throw invalid(`${field} is required.`);
  if (typeof v !== 'string') throw invalid(`${field} must be a string.`);
  const n = chars(v);
  if (n < min || n > max) throw invalid(`${field} must be ${min} to ${max} characters long.`);
  return v;
}

export function optionalText(
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
): string | undefined {
  if (body[field] === undefined) return undefined;
  return text(body, field, min, max);
}

export function environment(body: Record<string, unknown>, field: string, fallback?: string): string {
  const v = body[field];
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) {
    throw invalid(`${field} must be one of ${ENVIRONMENTS.join(', ')}.`);
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
  if (v === undefined || v === null) throw invalid(`${field} is required.`);
  if (!Array.isArray(v)) throw invalid(`${field} must be an array of strings.`);
  if (v.length < minItems || v.length > maxItems) throw invalid(`${field} must hold ${minItems} to ${maxItems} items.`);
  v.forEach((item, i) => {
    if (typeof item !== 'string') throw invalid(`${field}[${i}] must be a string.`);
    const n = chars(item);
    if (n < min || n > max) throw invalid(`${field}[${i}] must be ${min} to ${max} characters long.`);
  });
  return v as string[];
}

/** Refuses fields the schema does not list (used where the interface says the field list is the schema). */
export function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  const extra = Object.keys(body).filter((k) => !allowed.includes(k));
  if (extra.length > 0) {
    throw invalid(
      `Unknown field(s): ${extra.map((k) => k.slice(0, 40)).join(', ')}.`,
      `Allowed fields: ${allowed.join(', ')}.`,
    );
  }
}
