// Ash-style input validation: every accepted input is declared; lengths count characters, not bytes.
import { ApiError } from './conn.ts';

export function chars(s: string): number {
  return [...s].length;
}

export function refuseUnknown(body: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(body)) {
    if (!allowed.includes(k)) {
      throw new ApiError('invalid_request', `unknown field ${k}`, {
        detail: `accepted fields: ${allowed.join(', ')}`,
        pointer: `/${k}`,
      });
    }
  }
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
    if (required) throw new ApiError('invalid_request', `${field} is required`, { pointer: `/${field}` });
    return undefined;
  }
  if (typeof v !== 'string')
    throw new ApiError('invalid_request', `${field} must be a string`, { pointer: `/${field}` });
  const n = chars(v);
  if (n < min || n > max) {
    throw new ApiError('invalid_request', `${field} must be ${min} to ${max} characters long`, {
      pointer: `/${field}`,
    });
  }
  return v;
}

export function oneOf(
  body: Record<string, unknown>,
  field: string,
  values: string[],
  required: boolean,
): string | undefined {
  const v = body[field];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || !values.includes(v)) {
    throw new ApiError('invalid_request', `${field} must be one of ${values.join(', ')}`, { pointer: `/${field}` });
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
  if (!Array.isArray(v))
    throw new ApiError('invalid_request', `${field} must be an array of strings`, { pointer: `/${field}` });
  if (v.length < minItems || v.length > maxItems) {
    throw new ApiError('invalid_request', `${field} must have ${minItems} to ${maxItems} items`, {
      pointer: `/${field}`,
    });
  }
  v.forEach((item, i) => {
    if (typeof item !== 'string' || chars(item) < min || chars(item) > max) {
      throw new ApiError('invalid_request', `${field}[${i}] must be a string of ${min} to ${max} characters`, {
        pointer: `/${field}/${i}`,
      });
    }
  });
  return v as string[];
}
