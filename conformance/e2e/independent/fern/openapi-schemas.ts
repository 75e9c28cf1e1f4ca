// Shared pieces of the OpenAPI document: schema helpers and the components (security, parameters,
// the contract's resources).
import { ENVIRONMENTS } from './validate.ts';

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const s = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
export const envelope = (data: unknown) => ({
  type: 'object',
  required: ['ok', 'data', 'meta'],
  properties: { ok: { const: true }, data, meta: ref('Meta') },
});
export const obj = (required: string[], properties: Record<string, unknown>, extra = true) => ({
  type: 'object',
  required,
  properties,
  additionalProperties: extra,
});
export const list = (field: string, item: unknown) =>
  obj(['count', field], { count: { type: 'integer' }, [field]: { type: 'array', items: item } });

export function components(tokenUrl: string) {
  return {
    securitySchemes: { oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl, scopes: {} } } } },
    parameters: {
      Tenant: { name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } },
      ServiceVersion: {
        name: 'Service-Version',
        in: 'header',
        required: true,
        schema: { type: 'string', enum: ['2026-07-01', '2026-06-12'] },
      },
    },
    schemas: {
      Environment: { type: 'string', enum: ENVIRONMENTS },
      Meta: obj(['requestId', 'version', 'at'], {
        requestId: { type: 'string' },
        version: { type: 'string' },
        at: { type: 'string', format: 'date-time' },
        idempotencyKey: { type: 'string' },
        replayed: { type: 'boolean' },
      }),
      Failure: obj(['ok', 'error', 'meta'], {
        ok: { const: false },
        error: obj(['code', 'message'], {
          code: { type: 'string' },
          message: { type: 'string' },
          detail: { type: 'string' },
          hint: { type: 'string' },
        }),
        meta: ref('Meta'),
      }),
      Provider: obj(['id', 'name', 'category', 'summary'], {
        id: { type: 'string' },
        name: { type: 'string' },
        category: { type: 'string' },
        summary: { type: 'string' },
      }),
      Connector: obj(['id', 'providerId', 'name', 'category', 'capabilities'], {
        id: { type: 'string' },
        providerId: { type: 'string' },
        name: { type: 'string' },
        category: { type: 'string' },
        capabilities: { type: 'array', items: { type: 'string' } },
      }),
      Capability: obj(['id', 'label', 'critical', 'idempotencyRequired'], {
        id: { type: 'string' },
        label: { type: 'string' },
        critical: { type: 'boolean' },
        idempotencyRequired: { type: 'boolean' },
      }),
      CapabilityDecision: obj(['connectorId', 'capability', 'allowed', 'critical', 'idempotencyRequired', 'reason'], {
        connectorId: { type: 'string' },
        capability: { type: 'string' },
        allowed: { type: 'boolean' },
        critical: { type: 'boolean' },
        idempotencyRequired: { type: 'boolean' },
        reason: { type: 'string' },
      }),
      Connection: obj(
        ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
        {
          id: { type: 'string', format: 'uuid' },
          connectorId: { type: 'string' },
          environment: ref('Environment'),
          scopeLabel: { type: 'string' },
          state: { type: 'string' },
          capabilities: {
            type: 'array',
            items: obj(['capability', 'critical', 'idempotencyRequired'], {
              capability: { type: 'string' },
              critical: { type: 'boolean' },
              idempotencyRequired: { type: 'boolean' },
            }),
          },
          nextStep: { type: 'string' },
          createdAt: { type: 'string', format: 'date-time' },
        },
      ),
      RouteInfo: obj(['method', 'path', 'purpose', 'auth'], {
        method: { type: 'string' },
        path: { type: 'string' },
        purpose: { type: 'string' },
        auth: { type: 'boolean' },
      }),
    },
  };
}
