// Body validation in the manner of a NestJS ValidationPipe with whitelist + forbidNonWhitelisted: unknown
// fields are refused, every listed field is checked for type and length (in characters, not bytes).
import { ApiError } from './util.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

type Rule =
  | { kind: 'string'; min: number; max: number; optional?: boolean; oneOf?: string[] }
  | { kind: 'strings'; minItems: number; maxItems: number; min: number; max: number };

export type Schema = Record<string, Rule>;

const chars = (s: string) => [...s].length;

function checkString(field: string, v: unknown, min: number, max: number, oneOf?: string[]): void {
  if (typeof v !== 'string') throw invalid(field, `${field} must be a string.`);
  if (oneOf && !oneOf.includes(v)) throw invalid(field, `${field} must be one of ${oneOf.join(', ')}.`);
  const n = chars(v);
  if (n < min || n > max) throw invalid(field, `${field} must be ${min} to ${max} characters long.`);
}

function invalid(field: string, message: string): ApiError {
  return new ApiError('invalid_request', `Validation failed: ${message}`, {
    detail: `field: ${field}`,
    hint: 'Check the request against /api/public/v1/openapi.json.',
  });
}

/** Validates body against schema; throws 400 invalid_request naming the first offending field. */
export function validate(body: Record<string, unknown>, schema: Schema): void {
  for (const key of Object.keys(body)) {
    if (!(key in schema)) throw invalid(key, `property ${key} should not exist.`);
  }
  for (const [field, rule] of Object.entries(schema)) {
    const v = body[field];
    if (v === undefined) {
      if (rule.kind === 'string' && rule.optional) continue;
      throw invalid(field, `${field} is required.`);
    }
    if (rule.kind === 'string') {
      checkString(field, v, rule.min, rule.max, rule.oneOf);
      continue;
    }
    if (!Array.isArray(v)) throw invalid(field, `${field} must be an array of strings.`);
    if (v.length < rule.minItems || v.length > rule.maxItems) {
      throw invalid(field, `${field} must hold ${rule.minItems} to ${rule.maxItems} items.`);
    }
    for (const [i, item] of v.entries()) checkString(`${field}[${i}]`, item, rule.min, rule.max);
  }
}

export const CHECK_SCHEMA: Schema = {
  connectorId: { kind: 'string', min: 2, max: 120 },
  capability: { kind: 'string', min: 2, max: 120 },
  environment: { kind: 'string', min: 1, max: 40, optional: true, oneOf: ENVIRONMENTS },
};

export const CONNECTION_SCHEMA: Schema = {
  connectorId: { kind: 'string', min: 2, max: 120 },
  environment: { kind: 'string', min: 1, max: 40, oneOf: ENVIRONMENTS },
  scopeLabel: { kind: 'string', min: 2, max: 120 },
  capabilities: { kind: 'strings', minItems: 1, maxItems: 24, min: 2, max: 120 },
};

export const KEY_SCHEMA: Schema = { operation: { kind: 'string', min: 2, max: 80 } };

export const WEBHOOK_SCHEMA: Schema = {
  url: { kind: 'string', min: 8, max: 2048 },
  events: { kind: 'strings', minItems: 1, maxItems: 20, min: 2, max: 80 },
  description: { kind: 'string', min: 0, max: 200, optional: true },
};
