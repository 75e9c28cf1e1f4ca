// The schemas, bodies and parameters of pawpaw's OpenAPI document, as micronaut-openapi derives them from
// the controllers' Kotlin data classes and their @Size/@NotNull annotations.
import { ENVIRONMENTS, EVENTS, type Rec } from './state.ts';

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const str = (min?: number, max?: number) => ({
  type: 'string',
  ...(min ? { minLength: min, maxLength: max } : {}),
});
export const obj = (properties: Rec, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
export const arr = (items: Rec) => ({ type: 'array', items });

export const SCHEMAS: Rec = {
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
    ok: { const: false },
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
        type: str(),
        status: { type: 'integer' },
      },
      ['code', 'message'],
    ),
    meta: ref('Meta'),
  }),
  Environment: { type: 'string', enum: [...ENVIRONMENTS] },
  Provider: obj({ id: str(), name: str(), category: str(), summary: str() }),
  Connector: obj({ id: str(), providerId: str(), name: str(), category: str(), capabilities: arr(str()) }),
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
    id: { type: 'string', format: 'uuid' },
    connectorId: str(),
    environment: ref('Environment'),
    scopeLabel: str(),
    state: { type: 'string', enum: ['REQUESTED', 'PROVISIONING', 'ACTIVE', 'PAUSED'] },
    capabilities: arr(
      obj({ capability: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
    ),
    nextStep: str(),
    createdAt: { type: 'string', format: 'date-time' },
  }),
  RouteInfo: obj({ method: str(), path: str(), purpose: str(), auth: { type: 'boolean' } }),
  Page: {
    type: 'object',
    properties: {
      content: arr({ type: 'object' }),
      pageable: { type: 'object' },
      totalSize: { type: 'integer' },
      totalPages: { type: 'integer' },
    },
  },
};

export const DATA: Record<string, Rec> = {
  'GET /': obj({
    service: str(),
    surface: str(),
    version: str(),
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: arr(ref('RouteInfo')),
  }),
  'GET /providers': obj({ count: { type: 'integer' }, providers: arr(ref('Provider')) }),
  'GET /connectors': obj({ count: { type: 'integer' }, connectors: arr(ref('Connector')) }),
  'GET /capabilities': obj({ count: { type: 'integer' }, capabilities: arr(ref('Capability')) }),
  'POST /capabilities': obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  'GET /connections': obj({ tenant: str(), count: { type: 'integer' }, connections: arr(ref('Connection')) }),
  'POST /connections': ref('Connection'),
  'POST /idempotency-keys': obj({
    idempotencyKey: str(),
    operation: str(),
    expiresAt: { type: 'string', format: 'date-time' },
  }),
};

export const BODIES: Record<string, Rec> = {
  'POST /capabilities': obj({ connectorId: str(2, 120), capability: str(2, 120), environment: ref('Environment') }, [
    'connectorId',
    'capability',
  ]),
  'POST /connections': obj({
    connectorId: str(2, 120),
    environment: ref('Environment'),
    scopeLabel: str(2, 120),
    capabilities: { ...arr(str(2, 120)), minItems: 1, maxItems: 24 },
  }),
  'POST /idempotency-keys': obj({ operation: str(2, 80) }),
  'POST /webhooks': obj({ url: { type: 'string', format: 'uri' }, events: arr({ type: 'string', enum: EVENTS }) }),
};

export const PARAMS: Record<string, Rec[]> = {
  'GET /providers': [{ name: 'category', in: 'query', schema: str() }],
  'GET /connectors': ['capability', 'providerId', 'category'].map((name) => ({ name, in: 'query', schema: str() })),
  'GET /stream': [
    { name: 'cursor', in: 'query', schema: { type: 'integer', minimum: 0 } },
    { name: 'Last-Event-ID', in: 'header', schema: str() },
  ],
  'GET /audit-log': ['limit', 'size', 'page'].map((name) => ({
    name,
    in: 'query',
    schema: { type: 'integer', minimum: 0 },
  })),
  'GET /webhooks/{webhookId}/delivery-attempts': ['size', 'page'].map((name) => ({
    name,
    in: 'query',
    schema: { type: 'integer', minimum: 0 },
  })),
};
