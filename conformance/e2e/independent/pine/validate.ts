// Body and query validation, changeset style: every problem of a body is collected and named in
// error.detail ("field: rule"), the values themselves never (errors carry no raw data). Unknown fields are
// ignored, as Ecto's cast does; lengths count characters (code points), not bytes.
import { halt } from './http-kit.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export class Changeset {
  body: Record<string, unknown>;
  errors: string[] = [];

  constructor(body: unknown) {
    this.body = (body ?? {}) as Record<string, unknown>;
  }

  text(field: string, min: number, max: number, required = true): string | undefined {
    const v = this.body[field];
    if (v === undefined) {
      if (required) this.errors.push(`${field}: can't be blank`);
      return undefined;
    }
    if (typeof v !== 'string') {
      this.errors.push(`${field}: is invalid (expected a string)`);
      return undefined;
    }
    const n = [...v].length;
    if (n < min || n > max) {
      this.errors.push(`${field}: should be ${min} to ${max} character(s)`);
      return undefined;
    }
    return v;
  }

  environment(field: string, required: boolean): string | undefined {
    const v = this.body[field];
    if (v === undefined && !required) return undefined;
    if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) {
      this.errors.push(`${field}: must be one of ${ENVIRONMENTS.join(', ')}`);
      return undefined;
    }
    return v;
  }

  textList(field: string, minItems: number, maxItems: number, min: number, max: number): string[] | undefined {
    const v = this.body[field];
    if (!Array.isArray(v)) {
      this.errors.push(v === undefined ? `${field}: can't be blank` : `${field}: is invalid (expected a list)`);
      return undefined;
    }
    if (v.length < minItems || v.length > maxItems) {
      this.errors.push(`${field}: should have ${minItems} to ${maxItems} item(s)`);
      return undefined;
    }
    for (let i = 0; i < v.length; i += 1) {
      const item = v[i];
      if (typeof item !== 'string' || [...item].length < min || [...item].length > max) {
        this.errors.push(`${field}[${i}]: should be a string of ${min} to ${max} character(s)`);
        return undefined;
      }
    }
    return v as string[];
  }

  /** Halts with 400 invalid_request naming every problem found. */
  check(): void {
    if (this.errors.length > 0) {
      halt(
        'invalid_request',
        'The request body is not valid',
        this.errors.join('; '),
        'Check the request against the published description.',
      );
    }
  }
}

/** An optional integer query parameter within bounds, refused with 400 otherwise. */
export function queryInt(params: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const all = params.getAll(name);
  if (all.length === 0) return undefined;
  const raw = all[0] ?? '';
  if (all.length > 1 || !/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    halt('invalid_request', `${name} is not valid`, `${name}: an integer from ${min} to ${max}`);
  }
  return Number(raw);
}

/** An optional text query parameter (one value). */
export function queryText(params: URLSearchParams, name: string): string | undefined {
  const all = params.getAll(name);
  if (all.length > 1) halt('invalid_request', `${name} may be given once`, `${name}: given more than once`);
  return all[0];
}
