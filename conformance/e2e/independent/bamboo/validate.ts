// serde-style request validation: #[serde(deny_unknown_fields)] on every body, lengths counted in
// characters (Unicode scalar values, as Rust's chars().count()), and one precise message per refusal.
import { invalid } from './wire.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

const chars = (s: string) => [...s].length;

/** Refuses any field not listed (the interface: "the field list above is the schema"). */
export function denyUnknown(body: Record<string, unknown>, allowed: readonly string[]): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) throw invalid(`unknown field \`${key}\`, expected one of ${allowed.join(', ')}`);
  }
}

export function text(body: Record<string, unknown>, name: string, min: number, max: number): string;
export function text(
  body: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
  optional: true,
): string | undefined;
export function text(
  body: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
  optional = false,
): string | undefined {
  const v = body[name];
  if (v === undefined && optional) return undefined;
  if (v === undefined || v === null) throw invalid(`missing field \`${name}\``);
  if (typeof v !== 'string') throw invalid(`invalid type for \`${name}\`: expected a string`);
  const n = chars(v);
  if (n < min || n > max) throw invalid(`\`${name}\` must be ${min} to ${max} characters long`);
  return v;
}

export function environment(body: Record<string, unknown>, name: string, fallback?: string): string {
  const v = body[name];
  if (v === undefined && fallback !== undefined) return fallback;
  if (v === undefined || v === null) throw invalid(`missing field \`${name}\``);
  if (typeof v !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(v)) {
    throw invalid(`\`${name}\` must be one of ${ENVIRONMENTS.join(', ')}`);
  }
  return v;
}

export function textList(
  body: Record<string, unknown>,
  name: string,
  minItems: number,
  maxItems: number,
  min: number,
  max: number,
): string[] {
  const v = body[name];
  if (v === undefined || v === null) throw invalid(`missing field \`${name}\``);
  if (!Array.isArray(v)) throw invalid(`invalid type for \`${name}\`: expected an array of strings`);
  if (v.length < minItems || v.length > maxItems)
    throw invalid(`\`${name}\` must hold ${minItems} to ${maxItems} items`);
  v.forEach((item, i) => {
    if (typeof item !== 'string') throw invalid(`invalid type for \`${name}[${i}]\`: expected a string`);
    const n = chars(item);
    if (n < min || n > max) throw invalid(`\`${name}[${i}]\` must be ${min} to ${max} characters long`);
  });
  return v as string[];
}

/** Canonical JSON (keys sorted at every level): the idempotency fingerprint and the audit hash input. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
