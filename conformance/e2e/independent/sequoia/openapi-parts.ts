// The building blocks of the OpenAPI document: schema shorthands, the envelopes, the shared parameters and
// the failure answers every authenticated operation may give (the interface's status list).
import { ENVIRONMENTS } from './http-kit.ts';

export const str = (min?: number, max?: number) => ({
  type: 'string',
  ...(min ? { minLength: min } : {}),
  ...(max ? { maxLength: max } : {}),
});
export const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
export const arr = (items: unknown) => ({ type: 'array', items });
export const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
export const envelope = (data: unknown) => ({
  description: 'success',
  content: { 'application/json': { schema: obj({ ok: { const: true }, data, meta: ref('Meta') }) } },
});
export const failure = (d: string) => ({ description: d, content: { 'application/json': { schema: ref('Failure') } } });
export const errors = Object.fromEntries(
  [
    ['400', 'invalid_request'],
    ['401', 'unauthorized'],
    ['403', 'forbidden'],
    ['404', 'not_found'],
    ['409', 'capability_denied or idempotency_conflict'],
    ['428', 'idempotency_required'],
    ['429', 'rate_limited'],
    ['500', 'internal'],
  ].map(([s, d]) => [s, failure(d ?? '')]),
);
export const header = (name: string, required: boolean, schema: unknown) => ({ name, in: 'header', required, schema });
export const tenantH = header('x-service-tenant', true, str(1));
export const keyH = (required: boolean) =>
  header('Idempotency-Key', required, { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' });
export const versionH = header('Service-Version', false, { type: 'string', enum: ['2026-07-01', '2026-06-12'] });
export const query = (name: string, schema: unknown) => ({ name, in: 'query', required: false, schema });
export const json = (schema: unknown) => ({ required: true, content: { 'application/json': { schema } } });
export const env = { type: 'string', enum: ENVIRONMENTS };
export const anyObj = { type: 'object', additionalProperties: true };

export function op(summary: string, data: unknown, extra: Record<string, unknown> = {}, auth = true) {
  const params = (extra.parameters as unknown[]) ?? [];
  return {
    summary,
    ...(auth ? { security: [{ oauth2: [] }] } : { security: [] }),
    ...extra,
    parameters: [...(auth ? [tenantH] : []), versionH, ...params],
    responses: { '200': envelope(data), ...errors },
  };
}
