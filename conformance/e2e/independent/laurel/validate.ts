// Request validation in the spirit of pydantic models with extra="forbid": every refusal is a 400
// invalid_request whose detail names the field and the rule (never the value that was sent).
import { ApiError } from './http-util.ts';
import { charLength, ENVIRONMENTS } from './util.ts';

type Body = Record<string, unknown>;

export function object(value: unknown, allowed: string[], ignoreExtra = false): Body {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError('invalid_request', 'body: must be a JSON object');
  }
  const body = value as Body;
  const extra = Object.keys(body).filter((k) => !allowed.includes(k));
  if (extra.length > 0 && !ignoreExtra) {
    // Field names are part of the schema, not partner data; only the first one is named.
    const name = (extra[0] ?? '').slice(0, 40).replace(/[^A-Za-z0-9_.-]/g, '?');
    throw new ApiError('invalid_request', `body.${name}: extra fields not permitted`);
  }
  return body;
}

export function text(body: Body, field: string, min: number, max: number, required = true): string | undefined {
  const value = body[field];
  if (value === undefined) {
    if (required) throw new ApiError('invalid_request', `body.${field}: field required`);
    return undefined;
  }
  if (typeof value !== 'string') throw new ApiError('invalid_request', `body.${field}: must be a string`);
  const n = charLength(value);
  if (n < min || n > max) {
    throw new ApiError('invalid_request', `body.${field}: length must be ${min} to ${max} characters`);
  }
  return value;
}

export function environment(body: Body, field: string, required: boolean): string | undefined {
  const value = body[field];
  if (value === undefined && !required) return undefined;
  if (value === undefined) throw new ApiError('invalid_request', `body.${field}: field required`);
  if (typeof value !== 'string' || !ENVIRONMENTS.includes(value)) {
    throw new ApiError('invalid_request', `body.${field}: must be one of ${ENVIRONMENTS.join(', ')}`);
  }
  return value;
}

export function textList(
  body: Body,
  field: string,
  minItems: number,
  maxItems: number,
  min: number,
  max: number,
): string[] {
  const value = body[field];
  if (value === undefined) throw new ApiError('invalid_request', `body.${field}: field required`);
  if (!Array.isArray(value)) throw new ApiError('invalid_request', `body.${field}: must be an array of strings`);
  if (value.length < minItems || value.length > maxItems) {
    throw new ApiError('invalid_request', `body.${field}: must have ${minItems} to ${maxItems} items`);
  }
  value.forEach((item, i) => {
    if (typeof item !== 'string') throw new ApiError('invalid_request', `body.${field}[${i}]: must be a string`);
    const n = charLength(item);
    if (n < min || n > max) {
      throw new ApiError('invalid_request', `body.${field}[${i}]: length must be ${min} to ${max} characters`);
    }
  });
  return value as string[];
}

/** A query integer (cursor, limit); absent gives undefined. */
export function queryInt(raw: string | null, name: string, min: number, max: number): number | undefined {
  if (raw === null) return undefined;
  if (!/^\d{1,4300}$/.test(raw))
    throw new ApiError('invalid_request', `query.${name}: must be an integer of at least ${min}`);
  const n = Number(raw);
  if (n < min || n > max) throw new ApiError('invalid_request', `query.${name}: must be between ${min} and ${max}`);
  return n;
}

/** A loopback receiver URL only: this sandbox never calls out of the machine. */
export function receiverUrl(body: Body): string {
  const value = text(body, 'url', 10, 2048) ?? '';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ApiError('invalid_request', 'body.url: must be an absolute http(s) URL');
  }
  if (!['http:', 'https:'].includes(url.protocol)) {
    throw new ApiError('invalid_request', 'body.url: must be an absolute http(s) URL');
  }
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    throw new ApiError('invalid_request', 'body.url: the sandbox delivers to loopback receivers only');
  }
  return value;
}
