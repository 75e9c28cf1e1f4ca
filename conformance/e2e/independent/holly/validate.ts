// Request validation as a protovalidate-style rule set: every violation is collected, none echoes a value.
import type { FieldViolation } from './http.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

/** Lengths count characters (code points), not UTF-8 bytes. */
export function charLength(s: string): number {
  return [...s].length;
}

export class Rules {
  violations: FieldViolation[] = [];
  body: Record<string, unknown>;
  constructor(body: Record<string, unknown>) {
    this.body = body;
  }

  /** Proto3 JSON parsing is strict here: unknown members are refused. */
  known(fields: string[]): this {
    for (const k of Object.keys(this.body)) {
      if (!fields.includes(k)) this.violations.push({ field: k, description: 'unknown field' });
    }
    return this;
  }

  text(field: string, min: number, max: number, required = true): string | undefined {
    const v = this.body[field];
    if (v === undefined) {
      if (required) this.violations.push({ field, description: 'required' });
      return undefined;
    }
    if (typeof v !== 'string') {
      this.violations.push({ field, description: 'must be a string' });
      return undefined;
    }
    const n = charLength(v);
    if (n < min || n > max) {
      this.violations.push({ field, description: `length must be ${min} to ${max} characters` });
      return undefined;
    }
    return v;
  }

  environment(field: string, required: boolean): string | undefined {
    const v = this.body[field];
    if (v === undefined) {
      if (required) this.violations.push({ field, description: 'required' });
      return undefined;
    }
    if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) {
      this.violations.push({ field, description: `must be one of ${ENVIRONMENTS.join(', ')}` });
      return undefined;
    }
    return v;
  }

  textList(field: string, minItems: number, maxItems: number, min: number, max: number): string[] | undefined {
    const v = this.body[field];
    if (v === undefined) {
      this.violations.push({ field, description: 'required' });
      return undefined;
    }
    if (!Array.isArray(v)) {
      this.violations.push({ field, description: 'must be an array of strings' });
      return undefined;
    }
    if (v.length < minItems || v.length > maxItems) {
      this.violations.push({ field, description: `must hold ${minItems} to ${maxItems} items` });
      return undefined;
    }
    const bad = v.findIndex((x) => typeof x !== 'string' || charLength(x) < min || charLength(x) > max);
    if (bad >= 0) {
      this.violations.push({
        field: `${field}[${bad}]`,
        description: `each item a string of ${min} to ${max} characters`,
      });
      return undefined;
    }
    return v as string[];
  }

  get failed(): boolean {
    return this.violations.length > 0;
  }
}
