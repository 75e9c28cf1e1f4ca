// Serializer-style validation: every field error is collected ("scopeLabel: This field is required.")
// and the whole set is refused at once with 400 invalid_request, as DRF's is_valid(raise_exception=True).
import { fail } from './core.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

type Errors = string[];

/** Length in characters (code points), not bytes or UTF-16 units. */
function len(s: string): number {
  return Array.from(s).length;
}

export function charField(
  body: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
  errors: Errors,
  required = true,
): string | undefined {
  const v = body[name];
  if (v === undefined) {
    if (required) errors.push(`${name}: This field is required.`);
    return undefined;
  }
  if (v === null) {
    errors.push(`${name}: This field may not be null.`);
    return undefined;
  }
  if (typeof v !== 'string') {
    errors.push(`${name}: Not a valid string.`);
    return undefined;
  }
  if (len(v) < min) errors.push(`${name}: Ensure this field has at least ${min} characters.`);
  else if (len(v) > max) errors.push(`${name}: Ensure this field has no more than ${max} characters.`);
  return v;
}

export function choiceField(
  body: Record<string, unknown>,
  name: string,
  choices: string[],
  errors: Errors,
  required = true,
): string | undefined {
  const v = body[name];
  if (v === undefined) {
    if (required) errors.push(`${name}: This field is required.`);
    return undefined;
  }
  if (typeof v !== 'string' || !choices.includes(v)) {
    errors.push(`${name}: "${String(v).slice(0, 40)}" is not a valid choice (one of ${choices.join(', ')}).`);
    return undefined;
  }
  return v;
}

export function listField(
  body: Record<string, unknown>,
  name: string,
  minItems: number,
  maxItems: number,
  item: [number, number],
  errors: Errors,
): string[] | undefined {
  const v = body[name];
  if (v === undefined) {
    errors.push(`${name}: This field is required.`);
    return undefined;
  }
  if (!Array.isArray(v)) {
    errors.push(`${name}: Expected a list of items.`);
    return undefined;
  }
  if (v.length < minItems) errors.push(`${name}: Ensure this field has at least ${minItems} elements.`);
  if (v.length > maxItems) errors.push(`${name}: Ensure this field has no more than ${maxItems} elements.`);
  v.forEach((x, i) => {
    if (typeof x !== 'string') errors.push(`${name}[${i}]: Not a valid string.`);
    else if (len(x) < item[0] || len(x) > item[1]) {
      errors.push(`${name}[${i}]: Ensure this item has ${item[0]} to ${item[1]} characters.`);
    }
  });
  return v as string[];
}

export function raiseIf(errors: Errors): void {
  if (errors.length > 0) fail('invalid_request', errors.join(' '));
}

export function validateCapabilityCheck(body: Record<string, unknown>) {
  const e: Errors = [];
  const connectorId = charField(body, 'connectorId', 2, 120, e);
  const capability = charField(body, 'capability', 2, 120, e);
  const environment = choiceField(body, 'environment', ENVIRONMENTS, e, false) ?? 'sandbox';
  raiseIf(e);
  return { connectorId: connectorId as string, capability: capability as string, environment };
}

export function validateConnection(body: Record<string, unknown>) {
  const e: Errors = [];
  const connectorId = charField(body, 'connectorId', 2, 120, e);
  const environment = choiceField(body, 'environment', ENVIRONMENTS, e);
  const scopeLabel = charField(body, 'scopeLabel', 2, 120, e);
  const capabilities = listField(body, 'capabilities', 1, 24, [2, 120], e);
  raiseIf(e);
  return {
    connectorId: connectorId as string,
    environment: environment as string,
    scopeLabel: scopeLabel as string,
    capabilities: capabilities as string[],
  };
}

export function validateKeyRequest(body: Record<string, unknown>) {
  const e: Errors = [];
  const operation = charField(body, 'operation', 2, 80, e);
  raiseIf(e);
  return { operation: operation as string };
}

/** Reads a non-negative integer query parameter; absent gives the default, anything else 400. */
export function intParam(q: URLSearchParams, name: string, dflt: number, min = 0): number {
  const raw = q.get(name);
  if (raw === null) return dflt;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < min) {
    fail('invalid_request', `${name}: A valid integer of at least ${min} is required.`);
  }
  return Number(raw);
}
