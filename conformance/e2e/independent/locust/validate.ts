// A few marshmallow fields, ported: each returns its error list (marshmallow's messages) and the schema
// refuses unknown fields (marshmallow's default `unknown = RAISE`).
import { validationError } from './http.ts';
import type { Rec } from './state.ts';

export type Errors = Record<string, string[]>;

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export function str(errors: Errors, body: Rec, name: string, min: number, max: number, required = true): void {
  const v = body[name];
  if (v === undefined) {
    if (required) errors[name] = ['Missing data for required field.'];
  } else if (v === null) errors[name] = ['Field may not be null.'];
  else if (typeof v !== 'string') errors[name] = ['Not a valid string.'];
  else if (v.length < min || v.length > max) errors[name] = [`Length must be between ${min} and ${max}.`];
}

export function oneOf(errors: Errors, body: Rec, name: string, choices: string[], required = true): void {
  const v = body[name];
  if (v === undefined) {
    if (required) errors[name] = ['Missing data for required field.'];
  } else if (v === null) errors[name] = ['Field may not be null.'];
  else if (typeof v !== 'string' || !choices.includes(v)) errors[name] = [`Must be one of: ${choices.join(', ')}.`];
}

export function strList(errors: Errors, body: Rec, name: string, minItems: number, maxItems: number): void {
  const v = body[name];
  if (v === undefined) errors[name] = ['Missing data for required field.'];
  else if (!Array.isArray(v)) errors[name] = ['Not a valid list.'];
  else if (v.length < minItems || v.length > maxItems) {
    errors[name] = [`Length must be between ${minItems} and ${maxItems}.`];
  } else {
    v.forEach((item, i) => {
      if (typeof item !== 'string') errors[`${name}.${i}`] = ['Not a valid string.'];
      else if (item.length < 2 || item.length > 120) errors[`${name}.${i}`] = ['Length must be between 2 and 120.'];
    });
  }
}

/** Raises with every collected message, unknown fields included, like `Schema().load(...)`. */
export function check(errors: Errors, body: Rec, known: string[]): void {
  for (const k of Object.keys(body)) if (!known.includes(k)) errors[k] = ['Unknown field.'];
  if (Object.keys(errors).length > 0) throw validationError(errors);
}
