// A small Malli stand-in: map schemas checked field by field, with errors in Malli's humanized wording
// ({:connectorId ["should be between 2 and 120 characters"]}) reshaped into the contract's error.detail.
import { ApiError } from './http.ts';
import type { Rec } from './state.ts';

type FieldSpec =
  | { kind: 'string'; min: number; max: number; optional?: boolean; enum?: readonly string[] }
  | { kind: 'strings'; minItems: number; maxItems: number; min: number; max: number; optional?: boolean };

export type Schema = Record<string, FieldSpec>;

function stringError(v: unknown, spec: { min: number; max: number; enum?: readonly string[] }): string | undefined {
  if (typeof v !== 'string') return 'should be a string';
  if (spec.enum && !spec.enum.includes(v)) return `should be either ${spec.enum.join(', ')}`;
  if (v.length < spec.min || v.length > spec.max) return `should be between ${spec.min} and ${spec.max} characters`;
  return undefined;
}

/** Humanized errors of `body` against `schema`, keyed by field; empty when valid. Unknown keys are ignored (open maps). */
export function explain(schema: Schema, body: Rec): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const [name, spec] of Object.entries(schema)) {
    const v = body[name];
    if (v === undefined) {
      if (!spec.optional) errors[name] = ['missing required key'];
      continue;
    }
    if (spec.kind === 'string') {
      const e = stringError(v, spec);
      if (e) errors[name] = [e];
      continue;
    }
    if (!Array.isArray(v)) {
      errors[name] = ['should be a sequence'];
      continue;
    }
    if (v.length < spec.minItems || v.length > spec.maxItems) {
      errors[name] = [`should have between ${spec.minItems} and ${spec.maxItems} elements`];
      continue;
    }
    v.forEach((item, i) => {
      const e = stringError(item, spec);
      if (e) errors[`${name}[${i}]`] = [e];
    });
  }
  return errors;
}

/** Throws invalid_request with the humanized errors as one detail line, the way the team's coercion handler does. */
export function validate(schema: Schema, body: Rec): void {
  const errors = explain(schema, body);
  const keys = Object.keys(errors);
  if (keys.length === 0) return;
  const detail = keys.map((k) => `${k}: ${(errors[k] ?? []).join(', ')}`).join('; ');
  throw new ApiError(
    400,
    'invalid_request',
    'Request did not match the schema',
    detail,
    'Check the request against the published description',
  );
}
