// RAML-style type checks of the request bodies the contract lists (the RAML types were converted to the
// OpenAPI schemas of openapi-schemas.ts). Lengths count characters, not bytes. Messages name the field, never
// the value sent ("no raw data sent along").
import { ENVIRONMENTS } from './catalog.ts';
import { ApiError } from './http.ts';

function bad(detail: string): ApiError {
  return new ApiError(
    'invalid_request',
    'The request is incomplete or unsuitable.',
    detail,
    'Check the request against the published description.',
  );
}

export function chars(s: string): number {
  return Array.from(s).length;
}

export function text(
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  required = true,
): string | undefined {
  const v = body[field];
  if (v === undefined && !required) return undefined;
  if (v === undefined) throw bad(`${field}: required`);
  if (typeof v !== 'string') throw bad(`${field}: must be a string`);
  const n = chars(v);
  if (n < min || n > max) throw bad(`${field}: length must be ${min} to ${max}`);
  return v;
}

export function environment(body: Record<string, unknown>, field: string, required: boolean): string | undefined {
  const v = body[field];
  if (v === undefined && !required) return undefined;
  if (v === undefined) throw bad(`${field}: required`);
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) throw bad(`${field}: one of ${ENVIRONMENTS.join(', ')}`);
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
  if (v === undefined) throw bad(`${field}: required`);
  if (!Array.isArray(v)) throw bad(`${field}: must be an array of strings`);
  if (v.length < minItems || v.length > maxItems) throw bad(`${field}: ${minItems} to ${maxItems} items`);
  v.forEach((item, i) => {
    if (typeof item !== 'string') throw bad(`${field}[${i}]: must be a string`);
    const n = chars(item);
    if (n < min || n > max) throw bad(`${field}[${i}]: length must be ${min} to ${max}`);
  });
  return v as string[];
}

/** "The field list above is the schema": unknown fields are refused (RAML additionalProperties: false). */
export function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(body)) {
    if (!allowed.includes(k)) throw bad(`${k}: unknown field (allowed: ${allowed.join(', ')})`);
  }
}

export function queryText(q: URLSearchParams, name: string): string | undefined {
  const all = q.getAll(name);
  if (all.length === 0) return undefined;
  if (all.length > 1) throw bad(`${name}: give it once`);
  return all[0];
}

export function cursor(value: string, where: string): number {
  if (!/^\d+$/.test(value)) throw bad(`${where}: an integer, minimum 0`);
  return Number(value);
}
