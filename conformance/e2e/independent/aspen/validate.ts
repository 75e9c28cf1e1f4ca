// Strict body validation: unknown fields are refused, lengths count characters (code points), and a
// refusal names the field and rule, never the value sent.
import { ENVIRONMENTS } from './catalog.ts';
import { HttpError } from './http-kit.ts';

function bad(field: string, rule: string): HttpError {
  return new HttpError('invalid_request', `${field} is invalid`, {
    detail: `${field}: ${rule}`,
    hint: 'check the request against the published description (openapi.json)',
  });
}

export function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(body)) if (!allowed.includes(k)) throw bad(k, 'unknown field');
}

export function text(
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  required = true,
): string | undefined {
  const v = body[field];
  if (v === undefined) {
    if (required) throw bad(field, 'required');
    return undefined;
  }
  if (typeof v !== 'string') throw bad(field, 'must be a string');
  const n = Array.from(v).length;
  if (n < min || n > max) throw bad(field, `length must be ${min} to ${max}`);
  return v;
}

export function environment(body: Record<string, unknown>, field: string, required: boolean): string | undefined {
  const v = body[field];
  if (v === undefined) {
    if (required) throw bad(field, 'required');
    return undefined;
  }
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) throw bad(field, `one of ${ENVIRONMENTS.join(', ')}`);
  return v;
}

export function textList(
  body: Record<string, unknown>,
  field: string,
  items: [number, number],
  len: [number, number],
): string[] {
  const v = body[field];
  if (v === undefined) throw bad(field, 'required');
  if (!Array.isArray(v)) throw bad(field, 'must be an array of strings');
  if (v.length < items[0] || v.length > items[1]) throw bad(field, `${items[0]} to ${items[1]} items`);
  v.forEach((x, i) => {
    if (typeof x !== 'string') throw bad(`${field}[${i}]`, 'must be a string');
    const n = Array.from(x).length;
    if (n < len[0] || n > len[1]) throw bad(`${field}[${i}]`, `length must be ${len[0]} to ${len[1]}`);
  });
  return v as string[];
}

/** A webhook receiver address: absolute http(s) URL without credentials. */
export function receiverUrl(body: Record<string, unknown>): string {
  const v = text(body, 'url', 10, 2048) ?? '';
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw bad('url', 'must be an absolute URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw bad('url', 'http or https only');
  if (u.username !== '' || u.password !== '') throw bad('url', 'no credentials in the address');
  return v;
}
