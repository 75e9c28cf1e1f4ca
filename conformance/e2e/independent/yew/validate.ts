// Model validation in the style of ASP.NET Core's [ApiController] binding: every field checked, every
// problem collected per field (camelCase names, "$" for the body itself), lengths counted in characters.
import { ENVIRONMENTS } from './catalog.ts';

export type Errors = Record<string, string[]>;

function add(errors: Errors, field: string, message: string): void {
  errors[field] = [...(errors[field] ?? []), message];
}

/** Parses a JSON object body; records a "$" error when it is not one. */
export function parseObject(text: string, errors: Errors): Record<string, unknown> | undefined {
  if (text.trim() === '') {
    add(errors, '$', 'A non-empty request body is required.');
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    add(errors, '$', 'The JSON value could not be converted to an object.');
  } catch {
    add(errors, '$', 'The request body is not valid JSON.');
  }
  return undefined;
}

function chars(s: string): number {
  return [...s].length;
}

export function text(
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  errors: Errors,
  required = true,
) {
  const v = body[field];
  if (v === undefined) {
    if (required) add(errors, field, `The ${field} field is required.`);
    return undefined;
  }
  if (typeof v !== 'string') {
    add(errors, field, `The ${field} field must be a string.`);
    return undefined;
  }
  const n = chars(v);
  if (n < min || n > max)
    add(errors, field, `The field ${field} must be a string with a length between ${min} and ${max}.`);
  return v;
}

export function environment(body: Record<string, unknown>, field: string, errors: Errors, required: boolean) {
  const v = body[field];
  if (v === undefined && !required) return 'sandbox';
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) {
    add(errors, field, `The ${field} field must be one of: ${ENVIRONMENTS.join(', ')}.`);
    return undefined;
  }
  return v;
}

export function textList(
  body: Record<string, unknown>,
  field: string,
  limits: { minItems: number; maxItems: number; min: number; max: number },
  errors: Errors,
) {
  const v = body[field];
  if (!Array.isArray(v)) {
    add(errors, field, `The ${field} field is required and must be an array.`);
    return undefined;
  }
  if (v.length < limits.minItems || v.length > limits.maxItems) {
    add(errors, field, `The field ${field} must hold between ${limits.minItems} and ${limits.maxItems} items.`);
  }
  v.forEach((item, i) => {
    if (typeof item !== 'string') add(errors, `${field}[${i}]`, 'The value must be a string.');
    else if (chars(item) < limits.min || chars(item) > limits.max) {
      add(errors, `${field}[${i}]`, `The value must have a length between ${limits.min} and ${limits.max}.`);
    }
  });
  return v as string[];
}

export function hasErrors(errors: Errors): boolean {
  return Object.keys(errors).length > 0;
}
