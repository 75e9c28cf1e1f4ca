// The schemas, request bodies, answers and query parameters the OpenAPI document names per operation.
import { ENVIRONMENTS } from './validate.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const str = (min?: number, max?: number) => ({
  type: 'string',
  ...(min ? { minLength: min } : {}),
  ...(max ? { maxLength: max } : {}),
});
export const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
export const list = (name: string, item: unknown) =>
  obj({ count: { type: 'integer' }, [name]: { type: 'array', items: item } });

export const SCHEMAS: Record<string, unknown> = {
  Meta: obj(
    {
      requestId: str(),
      version: str(),
      at: { type: 'string', format: 'date-time' },
      idempotencyKey: str(),
      replayed: { type: 'boolean' },
    },
    ['requestId', 'version', 'at'],
  ),
  Failure: obj({
    ok: { type: 'boolean', const: false },
    error: obj(
      {
        code: {
          type: 'string',
          enum: [
            'unauthorized',
            'forbidden',
            'not_found',
            'invalid_request',
            'capability_denied',
            'idempotency_conflict',
            'idempotency_required',
            'rate_limited',
            'internal',
          ],
        },
        message: str(),
        detail: str(),
        hint: str(),
      },
      ['code', 'message'],
    ),
    meta: ref('Meta'),
  }),
  Environment: { type: 'string', enum: ENVIRONMENTS },
  Provider: obj({ id: str(), name: str(), category: str(), summary: str() }),
  Connector: obj({
    id: str(),
    providerId: str(),
    name: str(),
    category: str(),
    capabilities: { type: 'array', items: str() },
  }),
  Capability: obj({ id: str(), label: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
  CapabilityDecision: obj({
    connectorId: str(),
    capability: str(),
    allowed: { type: 'boolean' },
    critical: { type: 'boolean' },
    idempotencyRequired: { type: 'boolean' },
    reason: str(),
  }),
  Connection: obj({
    id: str(),
    connectorId: str(),
    environment: ref('Environment'),
    scopeLabel: str(),
    state: str(),
    capabilities: {
      type: 'array',
      items: obj({ capability: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
    },
    nextStep: str(),
    createdAt: { type: 'string', format: 'date-time' },
  }),
  RouteInfo: obj({ method: str(), path: str(), purpose: str(), auth: { type: 'boolean' } }),
  IdempotencyKeyResult: obj({
    idempotencyKey: str(),
    operation: str(),
    expiresAt: { type: 'string', format: 'date-time' },
  }),
  Webhook: obj({
    id: { type: 'integer' },
    url: str(),
    events: { type: 'array', items: { type: 'string', enum: WEBHOOK_EVENTS } },
    status: str(),
    createdAt: { type: 'string', format: 'date-time' },
  }),
  Delivery: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      webhookId: { type: 'integer' },
      eventId: str(),
      eventType: str(),
      status: str(),
      attempts: { type: 'integer' },
    },
    additionalProperties: true,
  },
};

/** Request bodies and 200 data per "METHOD path". */
export const BODIES: Record<string, unknown> = {
  'POST /api/public/v1/capabilities': obj(
    { connectorId: str(2, 120), capability: str(2, 120), environment: ref('Environment') },
    ['connectorId', 'capability'],
  ),
  'POST /api/public/v1/connections': obj({
    connectorId: str(2, 120),
    environment: ref('Environment'),
    scopeLabel: str(2, 120),
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
  }),
  'POST /api/public/v1/idempotency-keys': obj({ operation: str(2, 80) }),
  'POST /api/public/v1/webhooks': obj(
    {
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', minItems: 1, items: { type: 'string', enum: WEBHOOK_EVENTS } },
      description: str(0, 200),
    },
    ['url', 'events'],
  ),
};

export const DATA: Record<string, unknown> = {
  'GET /api/public/v1': obj({
    service: str(),
    surface: str(),
    version: str(),
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  'GET /api/public/v1/providers': list('providers', ref('Provider')),
  'GET /api/public/v1/connectors': list('connectors', ref('Connector')),
  'GET /api/public/v1/capabilities': list('capabilities', ref('Capability')),
  'POST /api/public/v1/capabilities': obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  'GET /api/public/v1/connections': obj({
    tenant: str(),
    count: { type: 'integer' },
    connections: { type: 'array', items: ref('Connection') },
  }),
  'POST /api/public/v1/connections': ref('Connection'),
  'POST /api/public/v1/idempotency-keys': ref('IdempotencyKeyResult'),
  'POST /api/public/v1/webhooks': { allOf: [ref('Webhook'), obj({ signingKey: str(), signatureHeader: str() }, [])] },
  'GET /api/public/v1/webhooks': list('webhooks', ref('Webhook')),
  'GET /api/public/v1/webhooks/{webhookId}': ref('Webhook'),
  'GET /api/public/v1/webhooks/{webhookId}/delivery-attempts': obj({
    webhookId: { type: 'integer' },
    page: { type: 'integer' },
    pageSize: { type: 'integer' },
    total: { type: 'integer' },
    items: { type: 'array', items: ref('Delivery') },
  }),
  'POST /api/public/v1/webhooks/{webhookId}/delivery-attempts/{attemptId}/resend': ref('Delivery'),
};

export const QUERY: Record<string, [string, unknown][]> = {
  'GET /api/public/v1/providers': [['category', str()]],
  'GET /api/public/v1/connectors': [
    ['capability', str()],
    ['providerId', str()],
    ['category', str()],
  ],
  'GET /api/public/v1/stream': [['cursor', { type: 'integer', minimum: 0 }]],
  'GET /api/public/v1/audit-log': [
    ['limit', { type: 'integer', minimum: 1, maximum: 200 }],
    ['before', { type: 'integer', minimum: 1 }],
  ],
  'GET /api/public/v1/webhooks/{webhookId}/delivery-attempts': [
    ['page', { type: 'integer', minimum: 1 }],
    ['pageSize', { type: 'integer', minimum: 1, maximum: 100 }],
  ],
};

export const ERRORS: Record<string, string> = {
  '400': 'invalid_request',
  '401': 'unauthorized',
  '403': 'forbidden',
  '404': 'not_found',
  '409': 'conflict',
  '428': 'idempotency_required',
  '429': 'rate_limited',
  '500': 'internal',
};
