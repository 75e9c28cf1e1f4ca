// Body validation against the contract's field lists and limits. Lengths count characters (code points),
// not bytes or UTF-16 units. Unknown fields are refused: "the field list above is the schema".
import { ApiError } from './http.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

const chars = (s: string): number => [...s].length;

export function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  const unknown = Object.keys(body).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) {
    throw new ApiError(
      'invalid_request',
      `Unknown field(s): ${unknown.join(', ')}.`,
      `Allowed fields: ${allowed.join(', ')}.`,
    );
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
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string') {
    throw new ApiError(
      'invalid_request',
      `Field ${field} must be a string.`,
      `Send ${field} as a string of ${min} to ${max} characters.`,
    );
  }
  const n = chars(v);
  if (n < min || n > max) {
    throw new ApiError(
      'invalid_request',
      `Field ${field} has ${n} characters.`,
      `Send ${field} with ${min} to ${max} characters.`,
    );
  }
  return v;
}

export function environment(body: Record<string, unknown>, field: string, fallback?: string): string {
  const v = body[field];
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) {
    throw new ApiError(
      'invalid_request',
      `Field ${field} is not a known environment.`,
      `Use one of ${ENVIRONMENTS.join(', ')}.`,
    );
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
  if (!Array.isArray(v)) {
    throw new ApiError(
      'invalid_request',
      `Field ${field} must be an array of strings.`,
      `Send ${minItems} to ${maxItems} strings.`,
    );
  }
  if (v.length < minItems || v.length > maxItems) {
    throw new ApiError(
      'invalid_request',
      `Field ${field} has ${v.length} items.`,
      `Send ${minItems} to ${maxItems} items.`,
    );
  }
  v.forEach((item, i) => {
    if (typeof item !== 'string' || chars(item) < min || chars(item) > max) {
      throw new ApiError(
        'invalid_request',
        `Item ${i} of ${field} is unsuitable.`,
        `Each item is a string of ${min} to ${max} characters.`,
      );
    }
  });
  return v as string[];
}

/** The cursor of the stream: a decimal integer, minimum 0. */
export function cursor(value: string, name: string): number {
  if (!/^\d{1,15}$/.test(value)) {
    throw new ApiError(
      'invalid_request',
      `${name} must be an integer of at least 0.`,
      'Send the number of the last message read.',
    );
  }
  return Number(value);
}
