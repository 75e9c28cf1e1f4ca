// The building blocks of the generated probes (probes.ts): one value's variant, accepted or refused by the
// contract, the length variants of a bound, and a valid string's value wrapped in a wrong type.
import type { ErrorCode } from '../../simulator/contract/errors.ts';

export type Value = { value: unknown; omit?: false } | { omit: true };
export interface Variant {
  kind: string;
  v: Value;
  accepted: boolean;
  what: string;
  code?: ErrorCode;
  /** The interface leaves it to the deployment: refused with the code, or accepted (never a 5xx). */
  either?: true;
}

export const refused = (kind: string, v: Value, what: string, code?: ErrorCode): Variant => ({
  kind,
  v,
  accepted: false,
  what,
  ...(code ? { code } : {}),
});
export const accepted = (kind: string, value: unknown, what: string): Variant => ({
  kind,
  v: { value },
  accepted: true,
  what,
});

export function lengthVariants(
  t: { min?: number; max?: number },
  text: (n: number) => unknown,
  label: string,
): Variant[] {
  const out: Variant[] = [];
  if (t.min !== undefined) {
    if (t.min > 0)
      out.push(refused(`length-${t.min - 1}`, { value: text(t.min - 1) }, `${label} one shorter than ${t.min}`));
    out.push(accepted(`length-${t.min}`, text(t.min), `${label} of the minimum length ${t.min}`));
  }
  if (t.max !== undefined) {
    out.push(accepted(`length-${t.max}`, text(t.max), `${label} of the maximum length ${t.max}`));
    out.push(refused(`length-${t.max + 1}`, { value: text(t.max + 1) }, `${label} one longer than ${t.max}`));
  }
  return out;
}

/**
 * A valid string's value in a wrong type (the Errors table: "wrong data type"): inside an array, inside an
 * object, and a number of a valid length (a reader turning it into text stores "12345").
 */
export function wrappedVariants(valid: string, t: { min?: number; max?: number }): Variant[] {
  const digits = Math.min(Math.max(t.min ?? 1, 5), t.max ?? 5, 15);
  const number = Number('1234567890123456'.slice(0, digits));
  return [
    refused('wrapped-array', { value: [valid] }, 'the valid value inside an array'),
    refused('wrapped-object', { value: { value: valid } }, 'the valid value inside an object'),
    ...(digits >= (t.min ?? 1) ? [refused('as-number', { value: number }, `the number ${number} (not a string)`)] : []),
  ];
}
