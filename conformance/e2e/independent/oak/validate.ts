// Laravel-style validation (rules per field, first failure answered), but as the interface says: 400
// invalid_request, not Laravel's 422. Lengths count characters (mb_strlen), not bytes. Values are never echoed.
import type { Call } from './http-kit.ts';
import { sendError } from './http-kit.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

export type Body = Record<string, unknown>;

export type Rule =
  | { kind: 'string'; min: number; max: number; required: boolean }
  | { kind: 'enum'; values: string[]; required: boolean }
  | { kind: 'strings'; minItems: number; maxItems: number; min: number; max: number; required: boolean };

export function length(s: string): number {
  return [...s].length;
}

function label(field: string): string {
  return field.replace(/([A-Z])/g, ' $1').toLowerCase();
}

/** Parses a JSON object body; answers 400 and returns undefined otherwise. */
export function parseBody(call: Call, raw: string | undefined): Body | undefined {
  if (raw === undefined) {
    sendError(call, 'invalid_request', 'The request body is too large.', 'At most 256 KiB are accepted.');
    return undefined;
  }
  const type = call.req.headers['content-type'] ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    sendError(
      call,
      'invalid_request',
      'The request body must be JSON.',
      `Content type "${type || 'none'}" is not accepted.`,
      'Send the body with "Content-Type: application/json".',
    );
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    sendError(call, 'invalid_request', 'The request body is not valid JSON.', 'The body could not be parsed.');
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    sendError(
      call,
      'invalid_request',
      'The request body must be a JSON object.',
      'A JSON object with the documented fields is expected.',
    );
    return undefined;
  }
  return parsed as Body;
}

function problem(field: string, value: unknown, rule: Rule): string | undefined {
  const name = label(field);
  if (value === undefined) return rule.required ? `The ${name} field is required.` : undefined;
  // Present but null: Laravel's rules without `nullable` refuse it, optional field or not.
  if (value === null) return rule.required ? `The ${name} field is required.` : `The ${name} field must not be null.`;
  if (rule.kind === 'string') {
    if (typeof value !== 'string') return `The ${name} field must be a string.`;
    const n = length(value);
    if (n < rule.min || n > rule.max)
      return `The ${name} field must be between ${rule.min} and ${rule.max} characters.`;
    return undefined;
  }
  if (rule.kind === 'enum') {
    if (typeof value !== 'string' || !rule.values.includes(value))
      return `The selected ${name} is invalid (one of ${rule.values.join(', ')}).`;
    return undefined;
  }
  if (!Array.isArray(value)) return `The ${name} field must be an array.`;
  if (value.length < rule.minItems || value.length > rule.maxItems)
    return `The ${name} field must have between ${rule.minItems} and ${rule.maxItems} items.`;
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'string') return `The ${name}.${i} field must be a string.`;
    const n = length(item);
    if (n < rule.min || n > rule.max)
      return `The ${name}.${i} field must be between ${rule.min} and ${rule.max} characters.`;
  }
  return undefined;
}

/** Applies the rules in order; answers 400 with the first failure. Unknown fields are ignored unless strict. */
export function validate(call: Call, body: Body, rules: Record<string, Rule>, strict: boolean): boolean {
  for (const [field, rule] of Object.entries(rules)) {
    const message = problem(field, body[field], rule);
    if (message) {
      sendError(
        call,
        'invalid_request',
        'The given data was invalid.',
        message,
        `Check "${field}" against the published description.`,
      );
      return false;
    }
  }
  if (strict) {
    const unknown = Object.keys(body).filter((k) => !(k in rules));
    if (unknown.length > 0) {
      sendError(
        call,
        'invalid_request',
        'The given data was invalid.',
        `Unknown field(s): ${unknown.join(', ')}.`,
        'Send only the documented fields.',
      );
      return false;
    }
  }
  return true;
}
