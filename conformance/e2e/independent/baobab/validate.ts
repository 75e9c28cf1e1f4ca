// Pydantic-like body validation: every problem is collected with its location (body.scopeLabel,
// body.capabilities.2) and the list goes into error.detail as one string, the way FastAPI lists them.
import { ApiError } from './http-util.ts';

export interface StringField {
  type: 'string';
  min: number;
  max: number;
  pattern?: RegExp;
}
export interface EnumField {
  type: 'enum';
  values: readonly string[];
}
export interface ArrayField {
  type: 'array';
  min: number;
  max: number;
  items: StringField | EnumField;
}
export type FieldSpec = (StringField | EnumField | ArrayField) & { required: boolean };
export type Schema = Record<string, FieldSpec>;

/** Characters, not UTF-16 units or bytes: "é" counts one. */
export const charLength = (s: string): number => Array.from(s).length;

function checkScalar(spec: StringField | EnumField, value: unknown, loc: string, errors: string[]): void {
  if (typeof value !== 'string') {
    errors.push(`${loc}: Input should be a valid string`);
    return;
  }
  if (spec.type === 'enum') {
    if (!spec.values.includes(value)) {
      errors.push(`${loc}: Input should be ${spec.values.map((v) => `'${v}'`).join(', ')}`);
    }
    return;
  }
  const n = charLength(value);
  if (n < spec.min) errors.push(`${loc}: String should have at least ${spec.min} characters`);
  else if (n > spec.max) errors.push(`${loc}: String should have at most ${spec.max} characters`);
  else if (spec.pattern && !spec.pattern.test(value))
    errors.push(`${loc}: String should match pattern '${spec.pattern.source}'`);
}

/** Validates `body` against `schema` (extra fields forbidden); throws 400 invalid_request listing every error. */
export function validateBody(schema: Schema, body: Record<string, unknown>): void {
  const errors: string[] = [];
  for (const [name, spec] of Object.entries(schema)) {
    const loc = `body.${name}`;
    const value = body[name];
    if (value === undefined) {
      if (spec.required) errors.push(`${loc}: Field required`);
      continue;
    }
    if (spec.type === 'array') {
      if (!Array.isArray(value)) {
        errors.push(`${loc}: Input should be a valid list`);
        continue;
      }
      if (value.length < spec.min) errors.push(`${loc}: List should have at least ${spec.min} item`);
      else if (value.length > spec.max) errors.push(`${loc}: List should have at most ${spec.max} items`);
      value.forEach((item, i) => {
        checkScalar(spec.items, item, `${loc}.${i}`, errors);
      });
      continue;
    }
    checkScalar(spec, value, loc, errors);
  }
  for (const name of Object.keys(body)) {
    if (!(name in schema)) errors.push(`body.${name}: Extra inputs are not permitted`);
  }
  if (errors.length > 0) throw new ApiError('invalid_request', 'Request validation failed', errors.join('; '));
}

/** An integer query parameter with bounds, FastAPI's Query(ge=, le=). */
export function queryInt(params: URLSearchParams, name: string, def: number, min: number, max: number): number {
  const raw = params.get(name);
  if (raw === null) return def;
  if (!/^\d+$/.test(raw))
    throw new ApiError(
      'invalid_request',
      'Request validation failed',
      `query.${name}: Input should be a valid integer`,
    );
  const n = Number(raw);
  if (n < min)
    throw new ApiError(
      'invalid_request',
      'Request validation failed',
      `query.${name}: Input should be greater than or equal to ${min}`,
    );
  if (n > max)
    throw new ApiError(
      'invalid_request',
      'Request validation failed',
      `query.${name}: Input should be less than or equal to ${max}`,
    );
  return n;
}
