// A TypeBox-flavoured schema subset: the same objects describe the body for validation and for the
// OpenAPI document (Elysia's habit: one schema, two uses), so the published description cannot drift.
import { HttpError, isRec, type Rec } from './http.ts';

export type Schema = Rec;

export const t = {
  String: (o: Rec = {}): Schema => ({ type: 'string', ...o }),
  Integer: (o: Rec = {}): Schema => ({ type: 'integer', ...o }),
  Boolean: (): Schema => ({ type: 'boolean' }),
  Array: (items: Schema, o: Rec = {}): Schema => ({ type: 'array', items, ...o }),
  Enum: (values: readonly string[]): Schema => ({ type: 'string', enum: [...values] }),
  Object: (properties: Rec, optional: string[] = []): Schema => ({
    type: 'object',
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
  }),
};

/** The first problem found, in TypeBox's wording (`Expected string length greater or equal to 2`). */
function check(s: Schema, v: unknown, path: string): string | undefined {
  if (s.type === 'object') {
    if (!isRec(v)) return `${path || '/'}: Expected object`;
    for (const k of s.required ?? []) if (v[k] === undefined) return `${path}/${k}: Required property`;
    for (const [k, sub] of Object.entries(s.properties ?? {})) {
      if (v[k] === undefined) continue;
      const e = check(sub as Schema, v[k], `${path}/${k}`);
      if (e) return e;
    }
    return undefined;
  }
  if (s.type === 'array') {
    if (!Array.isArray(v)) return `${path}: Expected array`;
    if (s.minItems !== undefined && v.length < s.minItems)
      return `${path}: Expected array length to be greater or equal to ${s.minItems}`;
    if (s.maxItems !== undefined && v.length > s.maxItems)
      return `${path}: Expected array length to be less or equal to ${s.maxItems}`;
    for (let i = 0; i < v.length; i++) {
      const e = check(s.items, v[i], `${path}/${i}`);
      if (e) return e;
    }
    return undefined;
  }
  if (s.type === 'string') {
    if (typeof v !== 'string') return `${path}: Expected string`;
    if (s.enum && !s.enum.includes(v)) return `${path}: Expected one of ${s.enum.join(', ')}`;
    if (s.minLength !== undefined && v.length < s.minLength)
      return `${path}: Expected string length greater or equal to ${s.minLength}`;
    if (s.maxLength !== undefined && v.length > s.maxLength)
      return `${path}: Expected string length less or equal to ${s.maxLength}`;
    if (s.pattern && !new RegExp(s.pattern).test(v)) return `${path}: Expected string to match '${s.pattern}'`;
    return undefined;
  }
  if (s.type === 'integer') {
    if (typeof v !== 'number' || !Number.isInteger(v)) return `${path}: Expected integer`;
    if (s.minimum !== undefined && v < s.minimum)
      return `${path}: Expected integer to be greater or equal to ${s.minimum}`;
    return undefined;
  }
  if (s.type === 'boolean' && typeof v !== 'boolean') return `${path}: Expected boolean`;
  return undefined;
}

/** Elysia's ValidationError, reshaped: 400 invalid_request with the failing path in `detail`. */
export function validate<T = Rec>(schema: Schema, value: unknown, where = 'body'): T {
  const problem = check(schema, value, '');
  if (problem) {
    throw new HttpError(400, 'invalid_request', `Invalid ${where}`, problem, 'Check the request against /openapi.json');
  }
  return value as T;
}
