// Request validation as a zod-like set of small functions. Lengths count characters (code points), not
// bytes or UTF-16 units. Messages name the field and the rule, never the value sent (no raw data back).
import { ENVIRONMENTS } from './catalog-kv.ts';
import { invalid } from './http-kit.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

const chars = (s: string): number => [...s].length;

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
  return body[field] === undefined ? undefined : text(body, field, min, max);
}

export function environment(value: unknown, field = 'environment'): string {
  if (typeof value !== 'string' || !ENVIRONMENTS.includes(value)) {
    throw invalid(`${field} must be one of ${ENVIRONMENTS.join(', ')}.`);
  }
  return value;
}

export function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(body)) {
    if (!allowed.includes(k))
      throw invalid(`Unknown field ${JSON.stringify(k)}; the fields are ${allowed.join(', ')}.`);
  }
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
  if (v.length < minItems || v.length > maxItems) throw invalid(`${field} must have ${minItems} to ${maxItems} items.`);
  v.forEach((item, i) => {
    if (typeof item !== 'string') throw invalid(`${field}[${i}] must be a string.`);
    const n = chars(item);
    if (n < min || n > max) throw invalid(`${field}[${i}] must be ${min} to ${max} characters long.`);
  });
  return v as string[];
}

/** A query integer >= 0 in plain decimal digits (cursor, Last-Event-ID, after). */
export function nonNegativeInt(value: string, field: string): number {
  if (!/^\d{1,15}$/.test(value)) throw invalid(`${field} must be an integer of at least 0.`);
  return Number(value);
}

export function webhookUrl(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2048) throw invalid('url must be an http or https address.');
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw invalid('url must be an absolute http or https address.');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw invalid('url must use http or https.');
  if (u.username !== '' || u.password !== '') throw invalid('url must not carry credentials.');
  return u.toString();
}

/** The query parameters each route declares (the strictQuery option refuses any other). */
const QUERY: Record<string, string[]> = {
  'GET /providers': ['category'],
  'GET /connectors': ['capability', 'providerId', 'category'],
  'GET /audit-log': ['limit', 'cursor'],
  'GET /stream': ['cursor'],
  'GET /webhooks/:webhookId/delivery-log': ['limit'],
  'GET /webhook-deliveries': ['webhookId', 'limit'],
};

export function onlyDeclaredQuery(route: string, query: URLSearchParams): void {
  const known = QUERY[route] ?? [];
  for (const name of query.keys()) {
    if (!known.includes(name))
      throw invalid(`Unknown query parameter ${JSON.stringify(name)}.`, 'The parameters are listed in openapi.json.');
  }
}
