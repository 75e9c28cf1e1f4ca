// Form-request style validation: each rule names the contract's field and never echoes the value sent.
import { invalid } from './support.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export function asObject(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid('body', 'The request body must be a JSON object.');
  }
  return body as Record<string, unknown>;
}

/** A required string whose length in characters (not bytes) lies within [min, max]. */
export function text(o: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = o[field];
  if (v === undefined || v === null) throw invalid(field, `The ${field} field is required.`);
  if (typeof v !== 'string') throw invalid(field, `The ${field} field must be a string.`);
  const len = [...v].length;
  if (len < min || len > max) throw invalid(field, `The ${field} field must be between ${min} and ${max} characters.`);
  return v;
}

export function environment(o: Record<string, unknown>, field: string, fallback?: string): string {
  const v = o[field];
  if ((v === undefined || v === null) && fallback !== undefined && v !== null) return fallback;
  if (v === undefined || v === null) throw invalid(field, `The ${field} field is required.`);
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) {
    throw invalid(field, `The selected ${field} is invalid (one of ${ENVIRONMENTS.join(', ')}).`);
  }
  return v;
}

export function textList(o: Record<string, unknown>, field: string, minItems: number, maxItems: number): string[] {
  const v = o[field];
  if (v === undefined || v === null) throw invalid(field, `The ${field} field is required.`);
  if (!Array.isArray(v)) throw invalid(field, `The ${field} field must be an array.`);
  if (v.length < minItems || v.length > maxItems) {
    throw invalid(field, `The ${field} field must have between ${minItems} and ${maxItems} items.`);
  }
  v.forEach((item, i) => {
    text({ [`${field}.${i}`]: item }, `${field}.${i}`, 2, 120);
  });
  return v as string[];
}

/** A query integer (the paginator's limit and page): digits only, within [min, max]. */
export function intParam(v: string | null, name: string, dflt: number, min: number, max: number): number {
  if (v === null) return dflt;
  if (!/^\d+$/.test(v)) throw invalid(name, `The ${name} field must be an integer.`);
  const n = Number(v);
  if (n < min || n > max) throw invalid(name, `The ${name} field must be between ${min} and ${max}.`);
  return n;
}
