// The part of JSON::Validator that Mojolicious::Plugin::OpenAPI runs on each request body: the body is
// checked against the operation's schema in the OpenAPI document, and the plugin's `{errors: [{path,
// message}]}` list is reshaped into the contract's failure envelope (code invalid_request, detail = list).
import { ApiError } from './http.ts';
import type { Rec } from './state.ts';

export interface VError {
  path: string;
  message: string;
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeMatches(want: string, got: string): boolean {
  return want === got || (want === 'number' && got === 'integer');
}

export function validate(schema: Rec, value: unknown, path: string, errors: VError[]): void {
  const got = typeOf(value);
  if (schema.type && !typeMatches(schema.type, got)) {
    errors.push({ path, message: `Expected ${schema.type} - got ${got}.` });
    return;
  }
  if (schema.enum && !schema.enum.includes(value)) {
    errors.push({ path, message: `Not in enum list: ${schema.enum.join(', ')}.` });
  }
  if (typeof value === 'string') {
    // JSON::Validator counts characters, not bytes or UTF-16 units.
    const len = [...value].length;
    if (schema.minLength !== undefined && len < schema.minLength) {
      errors.push({ path, message: `String is too short: ${len}/${schema.minLength}.` });
    }
    if (schema.maxLength !== undefined && len > schema.maxLength) {
      errors.push({ path, message: `String is too long: ${len}/${schema.maxLength}.` });
    }
    if (schema.pattern && !new RegExp(schema.pattern).test(value)) {
      errors.push({ path, message: `String does not match ${schema.pattern}.` });
    }
    if (schema.format === 'uri' && !/^https?:\/\/[^\s/]+/i.test(value)) {
      errors.push({ path, message: 'Does not match uri format.' });
    }
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) {
      errors.push({ path, message: `Not enough items: ${value.length}/${schema.minItems}.` });
    }
    if (schema.maxItems !== undefined && value.length > schema.maxItems) {
      errors.push({ path, message: `Too many items: ${value.length}/${schema.maxItems}.` });
    }
    if (schema.items) {
      for (const [i, item] of value.entries()) validate(schema.items, item, `${path}/${i}`, errors);
    }
  }
  if (got === 'object' && value && typeof value === 'object') {
    const obj = value as Rec;
    for (const name of schema.required ?? []) {
      if (obj[name] === undefined) errors.push({ path: `${path}/${name}`, message: 'Missing property.' });
    }
    for (const [name, sub] of Object.entries((schema.properties ?? {}) as Rec)) {
      if (obj[name] !== undefined) validate(sub, obj[name], `${path}/${name}`, errors);
    }
  }
}

/** Validates a body like the plugin's `openapi.valid_input`, throwing the reshaped 400. */
export function validBody(schema: Rec, body: unknown): Rec {
  const errors: VError[] = [];
  if (body === undefined) errors.push({ path: '/body', message: 'Expected object - got null.' });
  else validate(schema, body, '/body', errors);
  if (errors.length > 0) {
    const detail = errors.map((e) => `${e.path}: ${e.message}`).join(' ');
    throw new ApiError('invalid_request', 'Invalid input.', detail);
  }
  return body as Rec;
}
