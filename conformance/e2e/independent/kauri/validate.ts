// Bean Validation in miniature: the body checks of the REST DSL's `type()` binding, thrown as invalid_request.
import { ENVIRONMENTS, type Environment } from './catalog.ts';
import { CamelRouteException } from './exchange.ts';

export function object(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new CamelRouteException('invalid_request', 'The body must be a JSON object');
  return body as Record<string, unknown>;
}

export function text(o: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = o[field];
  if (v === undefined || v === null) throw new CamelRouteException('invalid_request', `${field} is required`);
  if (typeof v !== 'string') throw new CamelRouteException('invalid_request', `${field} must be a string`);
  const len = [...v].length;
  if (len < min || len > max)
    throw new CamelRouteException('invalid_request', `${field} must be ${min} to ${max} characters long`);
  return v;
}

export function environment(o: Record<string, unknown>, fallback?: Environment): Environment {
  const v = o.environment;
  if (v === undefined && fallback) return fallback;
  if (typeof v !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(v)) {
    throw new CamelRouteException('invalid_request', `environment must be one of ${ENVIRONMENTS.join(', ')}`);
  }
  return v as Environment;
}

export function strings(
  o: Record<string, unknown>,
  field: string,
  minItems: number,
  maxItems: number,
  min: number,
  max: number,
): string[] {
  const v = o[field];
  if (!Array.isArray(v)) throw new CamelRouteException('invalid_request', `${field} must be an array of strings`);
  if (v.length < minItems || v.length > maxItems)
    throw new CamelRouteException('invalid_request', `${field} must hold ${minItems} to ${maxItems} items`);
  return v.map((item, i) => {
    if (typeof item !== 'string') throw new CamelRouteException('invalid_request', `${field}[${i}] must be a string`);
    const len = [...item].length;
    if (len < min || len > max)
      throw new CamelRouteException('invalid_request', `${field}[${i}] must be ${min} to ${max} characters long`);
    return item;
  });
}

/** An optional integer query parameter within [min, max]; `fallback` when absent. */
export function integer(
  raw: string | null | undefined,
  name: string,
  min: number,
  max: number,
  fallback?: number,
): number | undefined {
  if (raw === null || raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new CamelRouteException('invalid_request', `${name} must be an integer from ${min} to ${max}`);
  }
  return Number(raw);
}
