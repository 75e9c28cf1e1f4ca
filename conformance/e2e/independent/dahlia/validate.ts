// Body validation exactly at the contract's limits; unknown fields are refused (the field list is the schema).
import { ENVIRONMENTS } from './catalog.ts';
import { HttpError } from './http-kit.ts';
import { charLength } from './util.ts';

function bad(message: string, hint?: string): HttpError {
  return new HttpError(400, 'invalid_request', message, hint ?? 'Check the request against the published description.');
}

export function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key))
      throw bad(`Unknown field ${JSON.stringify(key).slice(0, 60)}.`, `Allowed fields: ${allowed.join(', ')}.`);
  }
}

export function text(
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  required = true,
): string | undefined {
  const value = body[field];
  if (value === undefined) {
    if (required) throw bad(`Field ${field} is required.`);
    return undefined;
  }
  if (typeof value !== 'string') throw bad(`Field ${field} must be a string.`);
  const n = charLength(value);
  if (n < min || n > max) throw bad(`Field ${field} must be ${min} to ${max} characters long.`);
  return value;
}

export function environment(body: Record<string, unknown>, required: boolean): string | undefined {
  const value = body.environment;
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || !ENVIRONMENTS.includes(value)) {
    throw bad('Field environment must be one of development, sandbox, pilot, production.');
  }
  return value;
}

export function textList(
  body: Record<string, unknown>,
  field: string,
  minItems: number,
  maxItems: number,
  min: number,
  max: number,
): string[] {
  const value = body[field];
  if (!Array.isArray(value)) throw bad(`Field ${field} must be an array of strings.`);
  if (value.length < minItems || value.length > maxItems)
    throw bad(`Field ${field} must hold ${minItems} to ${maxItems} items.`);
  for (const item of value) {
    if (typeof item !== 'string' || charLength(item) < min || charLength(item) > max) {
      throw bad(`Every item of ${field} must be a string of ${min} to ${max} characters.`);
    }
  }
  return value as string[];
}

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

export function webhookUrl(body: Record<string, unknown>): string {
  const value = body.url;
  if (typeof value !== 'string' || charLength(value) > 2048) throw bad('Field url must be an http(s) URL.');
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw bad('Field url must be an http(s) URL.');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw bad('Field url must be an http(s) URL.');
  return value;
}
