// express-validator, reduced to what kowhai's routes use: each rule yields entries shaped like `errors.array()`
// ({ type, value, msg, path, location }), and the pipeline turns them into the failure envelope's detail.
import { HttpError } from './http.ts';

export interface FieldError {
  type: 'field';
  value: unknown;
  msg: string;
  path: string;
  location: 'body' | 'query' | 'headers';
}

export type Rule = (source: Record<string, unknown>, location: FieldError['location']) => FieldError | undefined;

const err = (path: string, value: unknown, msg: string, location: FieldError['location']): FieldError => ({
  type: 'field',
  value,
  msg,
  path,
  location,
});

export function str(path: string, min: number, max: number, optional = false): Rule {
  return (src, loc) => {
    const v = src[path];
    if (v === undefined && optional) return undefined;
    if (v === undefined) return err(path, v, `${path} is required`, loc);
    if (typeof v !== 'string') return err(path, v, `${path} must be a string`, loc);
    if (v.length < min || v.length > max) return err(path, v, `${path} must be ${min} to ${max} characters long`, loc);
    return undefined;
  };
}

export function oneOf(path: string, values: readonly string[], optional = false): Rule {
  return (src, loc) => {
    const v = src[path];
    if (v === undefined && optional) return undefined;
    if (typeof v !== 'string' || !values.includes(v))
      return err(path, v, `${path} must be one of ${values.join(', ')}`, loc);
    return undefined;
  };
}

export function strArray(path: string, minItems: number, maxItems: number, min: number, max: number): Rule {
  return (src, loc) => {
    const v = src[path];
    if (!Array.isArray(v)) return err(path, v, `${path} must be an array`, loc);
    if (v.length < minItems || v.length > maxItems)
      return err(path, v, `${path} must hold ${minItems} to ${maxItems} items`, loc);
    const bad = v.findIndex((x) => typeof x !== 'string' || x.length < min || x.length > max);
    if (bad >= 0)
      return err(`${path}[${bad}]`, v[bad], `each item must be a string of ${min} to ${max} characters`, loc);
    return undefined;
  };
}

export function intString(path: string, min: number, max: number): Rule {
  return (src, loc) => {
    const v = src[path];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
      return err(path, v, `${path} must be an integer from ${min} to ${max}`, loc);
    return undefined;
  };
}

/** Runs the rules like `validationResult(req)`; a failure becomes 400 invalid_request with the errors as detail. */
export function check(value: unknown, location: FieldError['location'], rules: Rule[]): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new HttpError(400, 'invalid_request', 'Validation failed.', `${location}: a JSON object is required`);
  }
  const src = value as Record<string, unknown>;
  const errors = rules.map((r) => r(src, location)).filter((e): e is FieldError => e !== undefined);
  if (errors.length > 0) {
    const detail = errors.map((e) => `${e.location}.${e.path}: ${e.msg}`).join('; ');
    throw new HttpError(
      400,
      'invalid_request',
      'Validation failed.',
      detail,
      'Check the request against the published description.',
    );
  }
  return src;
}
