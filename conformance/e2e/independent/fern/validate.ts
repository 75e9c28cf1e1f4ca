// Pydantic-style validation: every offending field is collected, and the 400 lists them all in
// error.detail ("body.scopeLabel: ...; body.capabilities[1]: ...").
import { ApiError } from './http-util.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

export class Errors {
  list: string[] = [];
  add(loc: string, msg: string) {
    this.list.push(`${loc}: ${msg}`);
  }
  throwIfAny() {
    if (this.list.length > 0) {
      throw new ApiError(
        'invalid_request',
        'Request validation failed',
        this.list.join('; '),
        'Check the request against the published description (GET /api/public/v1/openapi.json)',
      );
    }
  }
}

/** Characters, not bytes (Python's len()). */
function len(s: string) {
  return [...s].length;
}

export function obj(body: unknown, errors: Errors): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    errors.add('body', 'expected a JSON object');
    errors.throwIfAny();
  }
  return body as Record<string, unknown>;
}

export function str(
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  errors: Errors,
  required = true,
): string | undefined {
  const v = body[field];
  if (v === undefined) {
    if (required) errors.add(`body.${field}`, 'field required');
    return undefined;
  }
  if (typeof v !== 'string') errors.add(`body.${field}`, 'expected a string');
  else if (len(v) < min || len(v) > max) errors.add(`body.${field}`, `length must be ${min} to ${max}`);
  else return v;
  return undefined;
}

export function env(body: Record<string, unknown>, errors: Errors, required: boolean): string | undefined {
  const v = body.environment;
  if (v === undefined) {
    if (required) errors.add('body.environment', 'field required');
    return undefined;
  }
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) {
    errors.add('body.environment', `must be one of ${ENVIRONMENTS.join(', ')}`);
    return undefined;
  }
  return v;
}

export function strList(body: Record<string, unknown>, field: string, errors: Errors, maxItems: number) {
  const v = body[field];
  if (v === undefined) {
    errors.add(`body.${field}`, 'field required');
    return undefined;
  }
  if (!Array.isArray(v)) {
    errors.add(`body.${field}`, 'expected an array');
    return undefined;
  }
  if (v.length < 1 || v.length > maxItems) errors.add(`body.${field}`, `must hold 1 to ${maxItems} items`);
  let good = true;
  v.forEach((item, i) => {
    if (typeof item !== 'string') errors.add(`body.${field}[${i}]`, 'expected a string');
    else if (len(item) < 2 || len(item) > 120) errors.add(`body.${field}[${i}]`, 'length must be 2 to 120');
    else return;
    good = false;
  });
  return good ? (v as string[]) : undefined;
}

export function noExtra(body: Record<string, unknown>, allowed: string[], errors: Errors) {
  for (const k of Object.keys(body)) {
    if (!allowed.includes(k)) errors.add(`body.${k}`, 'extra fields not permitted');
  }
}
