// class-validator DTOs in miniature: each rule yields class-validator's message; the ValidationPipe
// (whitelist: true; forbidNonWhitelisted by option) collects them into one 400 invalid_request.
import { badRequest } from './util.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

type Rule = (name: string, v: unknown) => string | null;

export const isStr =
  (min: number, max: number): Rule =>
  (n, v) => {
    if (typeof v !== 'string') return `${n} must be a string`;
    if (v.length < min) return `${n} must be longer than or equal to ${min} characters`;
    if (v.length > max) return `${n} must be shorter than or equal to ${max} characters`;
    return null;
  };

export const isIn =
  (values: string[]): Rule =>
  (n, v) =>
    typeof v === 'string' && values.includes(v)
      ? null
      : `${n} must be one of the following values: ${values.join(', ')}`;

export const isStrArray =
  (minItems: number, maxItems: number, item: Rule): Rule =>
  (n, v) => {
    if (!Array.isArray(v)) return `${n} must be an array`;
    if (v.length < minItems) return `${n} must contain at least ${minItems} elements`;
    if (v.length > maxItems) return `${n} must contain no more than ${maxItems} elements`;
    for (const [i, x] of v.entries()) {
      const m = item(`${n}[${i}]`, x);
      if (m) return m;
    }
    return null;
  };

export interface Field {
  rule: Rule;
  optional?: boolean;
}

/** Validates a body against a DTO; returns the whitelisted copy (unknown fields stripped or refused). */
export function validateDto(
  body: unknown,
  dto: Record<string, Field>,
  forbidUnknown: boolean,
): Record<string, unknown> {
  if (body === undefined) throw badRequest('a JSON body is required');
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('the body must be a JSON object');
  const src = body as Record<string, unknown>;
  const errors: string[] = [];
  const out: Record<string, unknown> = {};
  if (forbidUnknown) {
    for (const k of Object.keys(src)) if (!(k in dto)) errors.push(`property ${k} should not exist`);
  }
  for (const [name, f] of Object.entries(dto)) {
    const v = src[name];
    // Only an absent field is "not given": null is a value of the wrong type (stricter than @IsOptional()).
    if (v === undefined || (v === null && !f.optional)) {
      if (!f.optional) errors.push(`${name} should not be empty`);
      continue;
    }
    const m = f.rule(name, v);
    if (m) errors.push(m);
    else out[name] = v;
  }
  if (errors.length) throw badRequest(errors.join('; '));
  return out;
}

export const CheckCapabilityDto: Record<string, Field> = {
  connectorId: { rule: isStr(2, 120) },
  capability: { rule: isStr(2, 120) },
  environment: { rule: isIn(ENVIRONMENTS), optional: true },
};

export const CreateConnectionDto: Record<string, Field> = {
  connectorId: { rule: isStr(2, 120) },
  environment: { rule: isIn(ENVIRONMENTS) },
  scopeLabel: { rule: isStr(2, 120) },
  capabilities: { rule: isStrArray(1, 24, isStr(2, 120)) },
};

export const CreateKeyDto: Record<string, Field> = { operation: { rule: isStr(2, 80) } };

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
