// Vapor's `Validatable`: every rule is checked and the failures joined into one 400 reason, the way
// `ValidationsError` describes itself ("connectorId is less than minimum of 2 character(s)").
import { Abort, type Rec } from './http.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

type Rule = (body: Rec) => string | null;

export function string(field: string, min: number, max: number, required = true): Rule {
  return (body) => {
    const v = body[field];
    if (v === undefined || v === null) return required ? `${field} is required` : null;
    if (typeof v !== 'string') return `${field} is not a(n) String`;
    if (v.length < min) return `${field} is less than minimum of ${min} character(s)`;
    if (v.length > max) return `${field} is greater than maximum of ${max} character(s)`;
    return null;
  };
}

export function environment(field: string, required = true): Rule {
  return (body) => {
    const v = body[field];
    if (v === undefined || v === null) return required ? `${field} is required` : null;
    if (typeof v !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(v)) {
      return `${field} is not ${ENVIRONMENTS.join(', ')}`;
    }
    return null;
  };
}

export function stringArray(field: string, minItems: number, maxItems: number, min: number, max: number): Rule {
  return (body) => {
    const v = body[field];
    if (v === undefined || v === null) return `${field} is required`;
    if (!Array.isArray(v)) return `${field} is not a(n) Array`;
    if (v.length < minItems) return `${field} has less than ${minItems} item(s)`;
    if (v.length > maxItems) return `${field} has more than ${maxItems} item(s)`;
    for (const [i, item] of v.entries()) {
      if (typeof item !== 'string') return `${field}.${i} is not a(n) String`;
      if (item.length < min || item.length > max) return `${field}.${i} is not between ${min} and ${max} character(s)`;
    }
    return null;
  };
}

export function validate(body: Rec, rules: Rule[]): void {
  const failures = rules.map((r) => r(body)).filter((f): f is string => f !== null);
  if (failures.length > 0) {
    throw new Abort(400, failures.join(', '), { hint: 'Check the request against /api/public/v1/openapi.json.' });
  }
}

export function validKey(key: string | undefined): key is string {
  return typeof key === 'string' && KEY_PATTERN.test(key);
}
