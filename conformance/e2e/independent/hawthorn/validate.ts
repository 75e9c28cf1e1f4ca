// Bean Validation, the hawthorn way: each request record declares its constraints (@NotNull, @Size,
// @Pattern, an enum), every violation is collected, and the ConstraintViolationException mapper reshapes
// them into the interface's failure envelope: 400 invalid_request, detail "path: message; path: message".
// Messages name the field and the rule, never the refused value.
import { invalid } from './util.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export type Rule =
  | { kind: 'string'; min: number; max: number; required: boolean }
  | { kind: 'enum'; values: string[]; required: boolean }
  | { kind: 'list'; min: number; max: number; item: { min: number; max: number }; required: boolean }
  | { kind: 'url'; required: boolean };

export interface Schema {
  rules: Record<string, Rule>;
  /** Refuse fields the record does not declare (FAIL_ON_UNKNOWN_PROPERTIES). */
  closed: boolean;
}

const chars = (s: string) => [...s].length;

function check(path: string, rule: Rule, value: unknown, out: string[]): void {
  // Absent is absent; an explicit null is a value of the wrong type (the field's type is string or array).
  if (value === undefined) {
    if (rule.required) out.push(`${path}: must not be null`);
    return;
  }
  if (value === null) return void out.push(`${path}: must not be null`);
  if (rule.kind === 'list') {
    if (!Array.isArray(value)) return void out.push(`${path}: must be an array`);
    if (value.length < rule.min || value.length > rule.max)
      out.push(`${path}: size must be between ${rule.min} and ${rule.max}`);
    for (const [i, item] of value.entries())
      check(`${path}[${i}]`, { kind: 'string', ...rule.item, required: true }, item, out);
    return;
  }
  if (typeof value !== 'string') return void out.push(`${path}: must be a string`);
  if (rule.kind === 'string' && (chars(value) < rule.min || chars(value) > rule.max))
    out.push(`${path}: size must be between ${rule.min} and ${rule.max}`);
  if (rule.kind === 'enum' && !rule.values.includes(value))
    out.push(`${path}: must be one of ${rule.values.join(', ')}`);
  if (rule.kind === 'url') {
    let ok = false;
    try {
      const u = new URL(value);
      ok = (u.protocol === 'http:' || u.protocol === 'https:') && value.length <= 2048;
    } catch {
      ok = false;
    }
    if (!ok) out.push(`${path}: must be an absolute http(s) URL`);
  }
}

/** Validates a body against its schema; throws the reshaped violation list. */
export function validate(body: Record<string, unknown>, schema: Schema): void {
  const out: string[] = [];
  for (const [field, rule] of Object.entries(schema.rules)) check(field, rule, body[field], out);
  if (schema.closed) for (const k of Object.keys(body)) if (!(k in schema.rules)) out.push(`${k}: unknown property`);
  if (out.length > 0) throw invalid(out.join('; '));
}

const text = (min: number, max: number, required = true): Rule => ({ kind: 'string', min, max, required });

export const CHECK_SCHEMA: Schema = {
  rules: {
    connectorId: text(2, 120),
    capability: text(2, 120),
    environment: { kind: 'enum', values: ENVIRONMENTS, required: false },
  },
  closed: false,
};
export const CONNECTION_SCHEMA: Schema = {
  rules: {
    connectorId: text(2, 120),
    environment: { kind: 'enum', values: ENVIRONMENTS, required: true },
    scopeLabel: text(2, 120),
    capabilities: { kind: 'list', min: 1, max: 24, item: { min: 2, max: 120 }, required: true },
  },
  closed: true,
};
export const KEY_SCHEMA: Schema = { rules: { operation: text(2, 80) }, closed: false };
