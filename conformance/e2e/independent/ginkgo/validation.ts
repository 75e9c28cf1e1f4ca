// Pydantic-flavoured body and query validation: every issue names its location (`body.scopeLabel`) and
// uses pydantic v2's wording, all issues of a call are reported together in error.detail.
import { HttpError } from './http-kit.ts';

export interface FieldSpec {
  type: 'string' | 'array' | 'integer';
  required?: boolean;
  min?: number;
  max?: number;
  enum?: readonly string[];
  pattern?: RegExp;
  url?: boolean;
  items?: FieldSpec;
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

function enumText(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

function checkValue(loc: string, v: unknown, spec: FieldSpec, issues: string[]): void {
  if (spec.type === 'string') {
    if (typeof v !== 'string')
      return void issues.push(`${loc}: Input should be ${spec.enum ? enumText(spec.enum) : 'a valid string'}`);
    if (spec.enum && !spec.enum.includes(v)) return void issues.push(`${loc}: Input should be ${enumText(spec.enum)}`);
    if (spec.min !== undefined && v.length < spec.min)
      return void issues.push(`${loc}: String should have at least ${spec.min} character${spec.min === 1 ? '' : 's'}`);
    if (spec.max !== undefined && v.length > spec.max)
      return void issues.push(`${loc}: String should have at most ${spec.max} characters`);
    if (spec.pattern && !spec.pattern.test(v))
      return void issues.push(`${loc}: String should match pattern '${spec.pattern.source}'`);
    if (spec.url) {
      let u: URL | undefined;
      try {
        u = new URL(v);
      } catch {
        return void issues.push(`${loc}: Input should be a valid URL, relative URL without a base`);
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:')
        issues.push(`${loc}: URL scheme should be 'http' or 'https'`);
    }
    return;
  }
  if (spec.type === 'integer') {
    if (typeof v !== 'number' || !Number.isInteger(v))
      return void issues.push(`${loc}: Input should be a valid integer`);
    if (spec.min !== undefined && v < spec.min)
      issues.push(`${loc}: Input should be greater than or equal to ${spec.min}`);
    if (spec.max !== undefined && v > spec.max)
      issues.push(`${loc}: Input should be less than or equal to ${spec.max}`);
    return;
  }
  if (!Array.isArray(v)) return void issues.push(`${loc}: Input should be a valid list`);
  if (spec.min !== undefined && v.length < spec.min)
    return void issues.push(
      `${loc}: List should have at least ${spec.min} item${spec.min === 1 ? '' : 's'} after validation, not ${v.length}`,
    );
  if (spec.max !== undefined && v.length > spec.max)
    return void issues.push(`${loc}: List should have at most ${spec.max} items after validation, not ${v.length}`);
  const items = spec.items;
  if (items) for (const [i, item] of v.entries()) checkValue(`${loc}.${i}`, item, items, issues);
}

function raise(issues: string[]): never {
  throw new HttpError(
    'invalid_request',
    issues[0] ?? 'Request validation failed',
    issues.join('; '),
    'check the request against /api/public/v1/openapi.json',
  );
}

/** Validates a JSON body against a field table; unknown fields are ignored (pydantic's default `extra="ignore"`). */
export function validateBody(
  body: Record<string, unknown>,
  fields: Record<string, FieldSpec>,
): Record<string, unknown> {
  const issues: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(fields)) {
    const v = body[name];
    // null is a value, not an absent field: pydantic refuses it for a non-Optional field (type error)
    if (v === undefined) {
      if (spec.required) issues.push(`body.${name}: Field required`);
      continue;
    }
    checkValue(`body.${name}`, v, spec, issues);
    out[name] = v;
  }
  if (issues.length > 0) raise(issues);
  return out;
}

/** A non-negative integer from a query parameter or header, or undefined when absent. */
export function intParam(loc: string, raw: string | null | undefined, min: number, max?: number): number | undefined {
  if (raw === null || raw === undefined || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw.trim()))
    raise([`${loc}: Input should be a valid integer, unable to parse string as an integer`]);
  const n = Number(raw.trim());
  if (n < min) raise([`${loc}: Input should be greater than or equal to ${min}`]);
  if (max !== undefined && n > max) raise([`${loc}: Input should be less than or equal to ${max}`]);
  if (!Number.isSafeInteger(n)) raise([`${loc}: Input should be a valid integer`]);
  return n;
}

export function validationIssue(loc: string, message: string): never {
  raise([`${loc}: ${message}`]);
}
