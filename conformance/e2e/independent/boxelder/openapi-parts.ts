// Building blocks of the OpenAPI document: schema helpers, the shared components (envelopes, error
// codes, rate-limit headers) and a small YAML writer for the per-version file.
import type { Rec } from './state.ts';

export const str = { type: 'string' };
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const obj = (properties: Rec, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
export const envelope = (data: Rec) => obj({ ok: { const: true }, data, meta: ref('Meta') });
export const errors = Object.fromEntries(
  ['400', '401', '403', '404', '409', '428', '429', '500'].map((s) => [
    s,
    { $ref: `#/components/responses/${s === '429' ? 'RateLimited' : 'Failure'}` },
  ]),
);
export const limitHeaders = {
  'X-RateLimit-Limit': { description: 'calls allowed in the current window', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Remaining': { description: 'calls left in the window', schema: { type: 'integer', minimum: 0 } },
};
export const CODES = [
  'unauthorized',
  'forbidden',
  'not_found',
  'invalid_request',
  'capability_denied',
  'idempotency_conflict',
  'idempotency_required',
  'rate_limited',
  'internal',
];
export const okResponse = (data: Rec, description = 'Success') => ({
  200: { description, headers: limitHeaders, content: { 'application/json': { schema: envelope(data) } } },
  ...errors,
});
export const jsonBody = (schema: Rec) => ({ required: true, content: { 'application/json': { schema } } });
export const idem = { $ref: '#/components/parameters/IdempotencyKey' };
export const pathId = (name: string) => ({ name, in: 'path', required: true, schema: str });
export const tenant = { $ref: '#/components/parameters/TenantHeader' };
export const op = (summary: string, responses: Rec, extra: Rec = {}, auth = true) => ({
  summary,
  operationId: summary.replace(/\W+(\w)/g, (_m, c: string) => c.toUpperCase()).replace(/^\w/, (c) => c.toLowerCase()),
  ...(auth ? {} : { security: [] }),
  ...extra,
  ...(auth ? { parameters: [tenant, ...(extra.parameters ?? [])] } : {}),
  responses,
});
export const free = { type: 'object', additionalProperties: true };
export const list = (name: string, item: Rec, more: Rec = {}) =>
  obj({ count: { type: 'integer' }, [name]: { type: 'array', items: item }, ...more });
export const len = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });

export function components(): Rec {
  return {
    securitySchemes: {
      oauth2: {
        type: 'oauth2',
        flows: {
          clientCredentials: { tokenUrl: '/auth/token', scopes: { 'ncs.read': 'read', 'ncs.write': 'write' } },
        },
      },
    },
    parameters: {
      TenantHeader: { name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } },
      IdempotencyKey: {
        name: 'Idempotency-Key',
        in: 'header',
        required: true,
        schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
      },
    },
    responses: {
      Failure: { description: 'Failure', content: { 'application/json': { schema: ref('Failure') } } },
      RateLimited: {
        description: 'Too many calls in the window',
        headers: {
          ...limitHeaders,
          'Retry-After': { description: 'seconds to wait', required: true, schema: { type: 'integer', minimum: 1 } },
        },
        content: { 'application/json': { schema: ref('Failure') } },
      },
    },
    schemas: {
      Meta: obj(
        {
          requestId: str,
          version: str,
          at: { type: 'string', format: 'date-time' },
          idempotencyKey: str,
          replayed: { type: 'boolean' },
        },
        ['requestId', 'version', 'at'],
      ),
      Failure: obj({
        ok: { const: false },
        error: obj({ code: { type: 'string', enum: CODES }, message: str, detail: str, hint: str }, [
          'code',
          'message',
        ]),
        meta: ref('Meta'),
      }),
      Environment: { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] },
      Provider: obj({ id: str, name: str, category: str, summary: str }),
      Connector: obj({
        id: str,
        providerId: str,
        name: str,
        category: str,
        capabilities: { type: 'array', items: str },
      }),
      Capability: obj({
        id: str,
        label: str,
        critical: { type: 'boolean' },
        idempotencyRequired: { type: 'boolean' },
      }),
      CapabilityDecision: obj({
        connectorId: str,
        capability: str,
        allowed: { type: 'boolean' },
        critical: { type: 'boolean' },
        idempotencyRequired: { type: 'boolean' },
        reason: str,
      }),
      Connection: obj({
        id: str,
        connectorId: str,
        environment: ref('Environment'),
        scopeLabel: str,
        state: str,
        nextStep: str,
        capabilities: {
          type: 'array',
          items: obj({ capability: str, critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
        },
        createdAt: { type: 'string', format: 'date-time' },
      }),
    },
  };
}

/** YAML 1.2 from the same document: block mappings and sequences, scalars quoted as JSON strings. */
export function toYaml(v: unknown, indent = ''): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return v.map((x) => `\n${indent}- ${toYaml(x, `${indent}  `).replace(/^\n\s*/, '')}`).join('');
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v);
    if (entries.length === 0) return '{}';
    return entries.map(([k, x]) => `\n${indent}${JSON.stringify(k)}: ${toYaml(x, `${indent}  `)}`).join('');
  }
  return JSON.stringify(v);
}
