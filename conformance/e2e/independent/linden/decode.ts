// Strict request decoding in the manner of msgspec.Struct(forbid_unknown_fields=True): a JSON object with
// exactly the declared fields, each of its exact type (no coercion, null only where declared), lengths in
// characters. Every refusal is 400 invalid_request naming the field path (msgspec's "at `$.field`").
import { ApiError, type Call } from './call.ts';
import { charLength, readBody } from './util.ts';

export interface StringField {
  type: 'string';
  min: number;
  max: number;
  enum?: readonly string[];
  pattern?: RegExp;
  optional?: boolean;
  default?: string;
}
export interface ArrayField {
  type: 'array';
  min: number;
  max: number;
  items: StringField;
  optional?: boolean;
}
export type Field = StringField | ArrayField;
export type Spec = Record<string, Field>;

const invalid = (path: string, what: string): ApiError =>
  new ApiError(
    'invalid_request',
    'the request body does not match the schema',
    `${what} - at \`${path}\``,
    'check the request against the published description',
  );

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  return typeof v === 'boolean' ? 'bool' : typeof v === 'string' ? 'str' : 'object';
}

function str(v: unknown, f: StringField, path: string): string {
  if (typeof v !== 'string') throw invalid(path, `Expected \`str\`, got \`${typeName(v)}\``);
  const n = charLength(v);
  if (n < f.min) throw invalid(path, `Expected \`str\` of length >= ${f.min}`);
  if (n > f.max) throw invalid(path, `Expected \`str\` of length <= ${f.max}`);
  if (f.enum && !f.enum.includes(v)) throw invalid(path, `Invalid enum value, expected one of ${f.enum.join(', ')}`);
  if (f.pattern && !f.pattern.test(v)) throw invalid(path, `Expected \`str\` matching regex ${f.pattern.source}`);
  return v;
}

export function decode(value: unknown, spec: Spec): Record<string, unknown> {
  if (typeName(value) !== 'object') throw invalid('$', `Expected \`object\`, got \`${typeName(value)}\``);
  const obj = value as Record<string, unknown>;
  for (const k of Object.keys(obj)) {
    if (!(k in spec)) throw invalid(`$.${k}`, `Object contains unknown field \`${k.slice(0, 40)}\``);
  }
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(spec)) {
    const path = `$.${name}`;
    if (!(name in obj)) {
      if (!f.optional) throw invalid('$', `Object missing required field \`${name}\``);
      if (f.type === 'string' && f.default !== undefined) out[name] = f.default;
      continue;
    }
    const v = obj[name];
    if (f.type === 'string') out[name] = str(v, f, path);
    else {
      if (!Array.isArray(v)) throw invalid(path, `Expected \`array\`, got \`${typeName(v)}\``);
      if (v.length < f.min) throw invalid(path, `Expected \`array\` of length >= ${f.min}`);
      if (v.length > f.max) throw invalid(path, `Expected \`array\` of length <= ${f.max}`);
      out[name] = v.map((item, i) => str(item, f.items, `${path}[${i}]`));
    }
  }
  return out;
}

/** Reads a JSON body: a JSON media type (or none), at most 64 KiB, valid UTF-8 JSON. */
export async function jsonBody(call: Call): Promise<unknown> {
  const type = (call.req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const raw = await readBody(call.req);
  if (type && type !== 'application/json' && !type.endsWith('+json')) {
    throw new ApiError(
      'invalid_request',
      'the request body must be JSON',
      `content type ${type.slice(0, 60)} is not accepted`,
      'send Content-Type: application/json',
    );
  }
  if (raw === null) throw new ApiError('invalid_request', 'the request body is too large', 'at most 65536 bytes');
  if (raw.length === 0) throw invalid('$', 'Input data was truncated');
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    throw invalid('$', 'JSON is malformed');
  }
}
