// Body decoding as std.json.parseFromSlice into a struct: declared fields with their types and length
// bounds; an undeclared field is an error unless the deployment was started lenient.
import { ApiError } from './http.ts';
import type { Rec } from './state.ts';

export interface FieldSpec {
  kind: 'string' | 'strings' | 'enum';
  required: boolean;
  min?: number;
  max?: number;
  minItems?: number;
  maxItems?: number;
  values?: readonly string[];
}

function bad(field: string, why: string): never {
  throw new ApiError('invalid_request', `${field}: ${why}`);
}

function checkString(field: string, v: unknown, min = 0, max = Number.MAX_SAFE_INTEGER): string {
  if (typeof v !== 'string') bad(field, 'must be a string');
  if (v.length < min || v.length > max) bad(field, `length must be ${min} to ${max}`);
  return v;
}

export function decode(body: Rec, spec: Record<string, FieldSpec>, strict: boolean): Rec {
  if (strict) {
    for (const k of Object.keys(body)) if (!(k in spec)) bad(k, 'unknown field');
  }
  const out: Rec = {};
  for (const [name, f] of Object.entries(spec)) {
    const v = body[name];
    if (v === undefined || v === null) {
      if (f.required) bad(name, 'is required');
      continue;
    }
    if (f.kind === 'string') out[name] = checkString(name, v, f.min, f.max);
    if (f.kind === 'enum') {
      if (typeof v !== 'string' || !f.values?.includes(v)) bad(name, `must be one of ${f.values?.join(', ')}`);
      out[name] = v;
    }
    if (f.kind === 'strings') {
      if (!Array.isArray(v)) bad(name, 'must be an array of strings');
      if (v.length < (f.minItems ?? 0) || v.length > (f.maxItems ?? 1024)) {
        bad(name, `must have ${f.minItems} to ${f.maxItems} items`);
      }
      out[name] = v.map((x: unknown, i: number) => checkString(`${name}[${i}]`, x, f.min, f.max));
    }
  }
  return out;
}
