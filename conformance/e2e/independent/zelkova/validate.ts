// Body and parameter rules of the interface, written out by hand (zelkova's Go team mirrors them in SQL CHECKs).
import { bad } from './http-kit.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

/** Length in characters (code points), not UTF-16 units or bytes. */
const len = (s: string) => [...s].length;

export function text(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (v === undefined || v === null) throw bad(`${field} is required`);
  if (typeof v !== 'string') throw bad(`${field} must be a string`);
  if (len(v) < min || len(v) > max) throw bad(`${field} must be ${min} to ${max} characters long`);
  return v;
}

export function environment(body: Record<string, unknown>, required: boolean): string {
  const v = body.environment;
  if (v === undefined && !required) return 'sandbox';
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v))
    throw bad(`environment must be one of ${ENVIRONMENTS.join(', ')}`);
  return v;
}

export function textList(body: Record<string, unknown>, field: string, minItems: number, maxItems: number): string[] {
  const v = body[field];
  if (!Array.isArray(v)) throw bad(`${field} must be an array of strings`);
  if (v.length < minItems || v.length > maxItems) throw bad(`${field} must hold ${minItems} to ${maxItems} items`);
  v.forEach((item, i) => {
    if (typeof item !== 'string' || len(item) < 2 || len(item) > 120)
      throw bad(`${field}[${i}] must be a string of 2 to 120 characters`);
  });
  return v as string[];
}

/** Refuses fields outside the schema (POST /connections: "the field list above is the schema"). */
export function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  const extra = Object.keys(body).filter((k) => !allowed.includes(k));
  if (extra.length) throw bad('unknown field in the body', `not part of the schema: ${extra.join(', ')}`);
}

export function idempotencyKeyForm(key: string): void {
  if (!KEY_PATTERN.test(key)) throw bad('Idempotency-Key has the wrong form', 'pattern ^[A-Za-z0-9._:-]{8,128}$');
}
