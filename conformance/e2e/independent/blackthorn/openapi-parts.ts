// The building blocks of the OpenAPI document: schema helpers, the operation shape (envelope, tenant header,
// every failure status) and the components the contract's tables describe.
import { ENVIRONMENTS, type Rec } from './state.ts';

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const str = (min?: number, max?: number) => ({
  type: 'string',
  ...(min ? { minLength: min } : {}),
  ...(max ? { maxLength: max } : {}),
});
export const arr = (items: Rec) => ({ type: 'array', items });
export const obj = (properties: Rec, required: string[] = []) => ({ type: 'object', properties, required });
export const envelope = (data: Rec) => ({
  content: {
    'application/json': { schema: obj({ ok: { const: true }, data, meta: ref('Meta') }, ['ok', 'data', 'meta']) },
  },
  description: 'Success',
});
export const errors = Object.fromEntries(
  ['400', '401', '403', '404', '409', '428', '429', '500'].map((s) => [s, { $ref: '#/components/responses/Failure' }]),
);
export const p = (name: string, where: string, schema: Rec, required = false) => ({
  name,
  in: where,
  required,
  schema,
});
export const key = p('Idempotency-Key', 'header', { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' }, true);
export const body = (schema: Rec) => ({ required: true, content: { 'application/json': { schema } } });
export const op = (summary: string, data: Rec, extra: Rec = {}, secured = true) => ({
  summary,
  ...(secured
    ? {
        security: [{ oauth2: [] }],
        parameters: [p('x-service-tenant', 'header', { type: 'string' }, true), ...(extra.parameters ?? [])],
      }
    : {}),
  ...(extra.requestBody ? { requestBody: extra.requestBody } : {}),
  ...(!secured && extra.parameters ? { parameters: extra.parameters } : {}),
  responses: { '200': extra.ok ?? envelope(data), ...errors },
});
export const list = (name: string, item: string) =>
  obj({ count: { type: 'integer' }, [name]: arr(ref(item)) }, ['count', name]);
export const hookParam = p('webhookId', 'path', { type: 'string', format: 'uuid' }, true);

export const components = {
  securitySchemes: {
    oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/oauth2/token', scopes: {} } } },
  },
  responses: {
    Failure: { description: 'Failure envelope', content: { 'application/json': { schema: ref('Failure') } } },
  },
  schemas: {
    Environment: { type: 'string', enum: ENVIRONMENTS },
    Meta: obj(
      {
        requestId: { type: 'string' },
        version: { type: 'string' },
        at: { type: 'string', format: 'date-time' },
        idempotencyKey: { type: 'string' },
        replayed: { type: 'boolean' },
      },
      ['requestId', 'version', 'at'],
    ),
    Failure: obj(
      {
        ok: { const: false },
        error: obj(
          {
            code: { type: 'string' },
            message: { type: 'string' },
            detail: { type: 'string' },
            hint: { type: 'string' },
          },
          ['code', 'message'],
        ),
        meta: ref('Meta'),
      },
      ['ok', 'error', 'meta'],
    ),
    RouteInfo: obj(
      {
        method: { type: 'string' },
        path: { type: 'string' },
        purpose: { type: 'string' },
        auth: { type: 'boolean' },
      },
      ['method', 'path', 'purpose', 'auth'],
    ),
    Provider: obj(
      {
        id: { type: 'string' },
        name: { type: 'string' },
        category: { type: 'string' },
        summary: { type: 'string' },
      },
      ['id', 'name', 'category', 'summary'],
    ),
    Connector: obj(
      {
        id: { type: 'string' },
        providerId: { type: 'string' },
        name: { type: 'string' },
        category: { type: 'string' },
        capabilities: arr({ type: 'string' }),
      },
      ['id', 'providerId', 'name', 'category', 'capabilities'],
    ),
    Capability: obj(
      {
        id: { type: 'string' },
        label: { type: 'string' },
        critical: { type: 'boolean' },
        idempotencyRequired: { type: 'boolean' },
      },
      ['id', 'label', 'critical', 'idempotencyRequired'],
    ),
    CapabilityDecision: obj(
      Object.fromEntries([
        ['connectorId', { type: 'string' }],
        ['capability', { type: 'string' }],
        ['allowed', { type: 'boolean' }],
        ['critical', { type: 'boolean' }],
        ['idempotencyRequired', { type: 'boolean' }],
        ['reason', { type: 'string' }],
      ]),
      ['connectorId', 'capability', 'allowed', 'critical', 'idempotencyRequired', 'reason'],
    ),
    Connection: obj(
      {
        id: { type: 'string', format: 'uuid' },
        connectorId: { type: 'string' },
        environment: ref('Environment'),
        scopeLabel: { type: 'string' },
        state: { type: 'string', enum: ['pending-review', 'active'] },
        capabilities: arr(
          obj(
            {
              capability: { type: 'string' },
              critical: { type: 'boolean' },
              idempotencyRequired: { type: 'boolean' },
            },
            ['capability', 'critical', 'idempotencyRequired'],
          ),
        ),
        nextStep: { type: 'string' },
        createdAt: { type: 'string', format: 'date-time' },
      },
      ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
    ),
  },
};
