// Request validation as Connexion derives it from the OpenAPI document: required properties, types,
// minLength/maxLength, minItems/maxItems and enums, each refused with 400 and jsonschema's wording in detail.
import { ApiError } from './http.ts';
import { ENVIRONMENTS, type Json } from './state.ts';

export function str(body: Json, field: string, min: number, max: number, required = true): string | undefined {
  const v = body[field];
  // Connexion (jsonschema) refuses an explicit null for a non-nullable string; only an absent field is optional.
  if (v === undefined) {
    if (!required) return undefined;
    throw new ApiError('invalid_request', 'Request body is invalid', `'${field}' is a required property`);
  }
  if (typeof v !== 'string') {
    const shown = v === null ? 'None' : `'${field}'`;
    throw new ApiError('invalid_request', 'Request body is invalid', `${shown} is not of type 'string'`);
  }
  if (v.length < min) {
    throw new ApiError('invalid_request', 'Request body is invalid', `'${field}' is too short (minLength ${min})`);
  }
  if (v.length > max) {
    throw new ApiError('invalid_request', 'Request body is invalid', `'${field}' is too long (maxLength ${max})`);
  }
  return v;
}

export function environment(body: Json, required: boolean): string | undefined {
  const v = str(body, 'environment', 1, 40, required);
  if (v !== undefined && !(ENVIRONMENTS as readonly string[]).includes(v)) {
    throw new ApiError(
      'invalid_request',
      'Request body is invalid',
      `'${v}' is not one of ${JSON.stringify(ENVIRONMENTS)}`,
      'environment: one of development, sandbox, pilot, production',
    );
  }
  return v;
}

export function stringList(body: Json, field: string, minItems: number, maxItems: number): string[] {
  const v = body[field];
  if (!Array.isArray(v)) {
    throw new ApiError('invalid_request', 'Request body is invalid', `'${field}' is not of type 'array'`);
  }
  if (v.length < minItems || v.length > maxItems) {
    throw new ApiError(
      'invalid_request',
      'Request body is invalid',
      `'${field}' must have ${minItems} to ${maxItems} items`,
    );
  }
  return v.map((_, i) => str(v as unknown as Json, String(i), 2, 120) ?? '');
}

/** The one query parameter filter of the list endpoints (an empty value is refused like a too short one). */
export function queryFilter(params: URLSearchParams, name: string): string | undefined {
  const v = params.get(name);
  if (v === null) return undefined;
  if (v.length < 1 || v.length > 120) {
    throw new ApiError('invalid_request', `Invalid query parameter '${name}'`, `'${name}' must be 1 to 120 characters`);
  }
  return v;
}
