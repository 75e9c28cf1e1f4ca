// Body decoding the way encoding/json into a struct plus a validator would: wrong JSON types and
// out-of-range values are 400 invalid_request naming the field (never echoing its value).
import { invalid } from './util.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export function object(body: unknown, fields: string[], strict: boolean): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid('body: must be a JSON object');
  const obj = body as Record<string, unknown>;
  if (strict) {
    const extra = Object.keys(obj).find((k) => !fields.includes(k));
    if (extra) throw invalid(`body: unknown field "${extra.slice(0, 40)}"`);
  }
  return obj;
}

/** Length in characters (code points), as Go's utf8.RuneCountInString counts. */
const runes = (s: string): number => [...s].length;

export function text(
  obj: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  required = true,
): string | undefined {
  const v = obj[field];
  if (v === undefined && !required) return undefined;
  if (v === undefined || v === null) throw invalid(`${field}: required`);
  if (typeof v !== 'string') throw invalid(`${field}: must be a string`);
  const n = runes(v);
  if (n < min || n > max) throw invalid(`${field}: length must be between ${min} and ${max}`);
  return v;
}

export function environment(obj: Record<string, unknown>, field: string, required: boolean): string | undefined {
  const v = obj[field];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v))
    throw invalid(`${field}: must be one of ${ENVIRONMENTS.join(', ')}`);
  return v;
}

export function textList(
  obj: Record<string, unknown>,
  field: string,
  minItems: number,
  maxItems: number,
  min: number,
  max: number,
): string[] {
  const v = obj[field];
  if (v === undefined || v === null) throw invalid(`${field}: required`);
  if (!Array.isArray(v)) throw invalid(`${field}: must be an array of strings`);
  if (v.length < minItems || v.length > maxItems) throw invalid(`${field}: must hold ${minItems} to ${maxItems} items`);
  v.forEach((item, i) => {
    if (typeof item !== 'string') throw invalid(`${field}[${i}]: must be a string`);
    const n = runes(item);
    if (n < min || n > max) throw invalid(`${field}[${i}]: length must be between ${min} and ${max}`);
  });
  return v as string[];
}
