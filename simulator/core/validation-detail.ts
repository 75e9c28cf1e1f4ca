import type { ErrorObject } from 'ajv';

const LOCATIONS: Record<string, string> = { requestBody: 'body', query: 'query', params: 'path', headers: 'header' };

function fieldOf(err: ErrorObject): string {
  const parts = err.instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const where = LOCATIONS[parts[0] ?? ''] ?? parts[0] ?? 'request';
  const rest = parts.slice(1);
  if (err.keyword === 'required') rest.push(String((err.params as { missingProperty: string }).missingProperty));
  if (err.keyword === 'additionalProperties')
    rest.push(String((err.params as { additionalProperty: string }).additionalProperty));
  return rest.length ? `${where} field ${rest.join('.')}` : where;
}

function problemOf(err: ErrorObject): string {
  const p = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'minLength':
      return `must be at least ${p.limit} characters long`;
    case 'maxLength':
      return `must be at most ${p.limit} characters long`;
    case 'minItems':
      return `must have at least ${p.limit} items`;
    case 'maxItems':
      return `must have at most ${p.limit} items`;
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'type':
      return `must be of type ${p.type}`;
    case 'pattern':
      return `must match ${p.pattern}`;
    case 'minimum':
      return `must be >= ${p.limit}`;
    default:
      return err.message ?? 'is invalid';
  }
}

/** Turns Ajv errors into one readable detail naming each offending field (deduplicated, bounded). */
export function describeValidationErrors(errors: ErrorObject[]): { detail: string; fields: string[] } {
  const seen = new Set<string>();
  const lines: string[] = [];
  const fields: string[] = [];
  for (const err of errors) {
    // anyOf/oneOf wrappers repeat what their branches said.
    if (err.keyword === 'anyOf' || err.keyword === 'oneOf' || err.keyword === 'if') continue;
    const field = fieldOf(err);
    const line = `${field} ${problemOf(err)}`;
    if (seen.has(line)) continue;
    seen.add(line);
    fields.push(field);
    lines.push(line);
    if (lines.length >= 10) break;
  }
  return {
    detail: lines.length ? `${lines.join('; ')}.` : 'The request does not match the published description.',
    fields,
  };
}
