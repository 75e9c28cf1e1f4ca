// The schemas of the OpenAPI document: components, request bodies, the data of each answer and the
// query parameters, keyed by "METHOD /path" of the route table.
import { ENVIRONMENTS, EVENT_NAMES } from './catalog.ts';

export type Schema = Record<string, unknown>;
export const str = (min?: number, max?: number): Schema => ({
  type: 'string',
  ...(min ? { minLength: min } : {}),
  ...(max ? { maxLength: max } : {}),
});
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const obj = (props: Record<string, Schema>, required = Object.keys(props)): Schema => ({
  type: 'object',
  properties: props,
  required,
});
export const arr = (items: Schema, extra: Schema = {}): Schema => ({ type: 'array', items, ...extra });
export const dt: Schema = { type: 'string', format: 'date-time' };
export const free: Schema = { type: 'object', additionalProperties: true };

export const SCHEMAS: Record<string, Schema> = {
  Meta: obj({ requestId: str(), version: str(), at: dt, idempotencyKey: str(), replayed: { type: 'boolean' } }, [
    'requestId',
    'version',
    'at',
  ]),
  Error: obj({
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
      },
      ['code', 'message'],
    ),
    meta: ref('Meta'),
  }),
  Environment: { type: 'string', enum: ENVIRONMENTS },
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
    state: { type: 'string', enum: ['provisioning', 'active'] },
    capabilities: arr(
      obj({ capability: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
    ),
    nextStep: str(),
    createdAt: dt,
  }),
  RouteInfo: obj({ method: str(), path: str(), purpose: str(), auth: { type: 'boolean' } }),
  IdempotencyKeyResult: obj({ idempotencyKey: str(), operation: str(), expiresAt: dt }),
  Webhook: obj(
    {
      id: { type: 'string', format: 'uuid' },
      url: str(),
      events: arr({ type: 'string', enum: EVENT_NAMES }),
      active: { type: 'boolean' },
      createdAt: dt,
      secret: { type: 'string', description: 'signing key, in the first answer only' },
    },
    ['id', 'url', 'events'],
  ),
  Delivery: obj({
    id: { type: 'string', format: 'uuid' },
    webhookId: str(),
    event: str(),
    eventId: str(),
    status: { type: 'string', enum: ['queued', 'delivered', 'retrying', 'failed'] },
    attempts: arr(free),
    createdAt: dt,
    redeliveryOf: { type: ['string', 'null'] },
    payload: free,
  }),
  AuditEntry: obj({
    id: str(),
    sequence: { type: 'integer' },
    occurredAt: dt,
    actor: str(),
    action: str(),
    resource: str(),
    idempotencyKey: { type: ['string', 'null'] },
    previousDigest: str(),
    digest: str(),
  }),
};

export const BODIES: Record<string, Schema> = {
  'POST /capabilities': obj(
    { connectorId: str(2, 120), capability: str(2, 120), environment: { ...ref('Environment'), default: 'sandbox' } },
    ['connectorId', 'capability'],
  ),
  'POST /connections': obj({
    connectorId: str(2, 120),
    environment: ref('Environment'),
    scopeLabel: str(2, 120),
    capabilities: arr(str(2, 120), { minItems: 1, maxItems: 24 }),
  }),
  'POST /idempotency-keys': obj({ operation: str(2, 80) }),
  'POST /webhooks': obj({
    url: { type: 'string', format: 'uri' },
    events: arr({ type: 'string', enum: EVENT_NAMES }, { minItems: 1 }),
  }),
};

export const DATA: Record<string, Schema> = {
  'GET /': obj({
    service: str(),
    surface: str(),
    version: str(),
    authentication: free,
    idempotency: free,
    routes: arr(ref('RouteInfo')),
  }),
  'GET /providers': obj({ count: { type: 'integer' }, providers: arr(ref('Provider')) }),
  'GET /connectors': obj({ count: { type: 'integer' }, connectors: arr(ref('Connector')) }),
  'GET /capabilities': obj({ count: { type: 'integer' }, capabilities: arr(ref('Capability')) }),
  'POST /capabilities': obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  'GET /connections': obj({ tenant: str(), count: { type: 'integer' }, connections: arr(ref('Connection')) }),
  'POST /connections': ref('Connection'),
  'GET /connections/{id}': ref('Connection'),
  'POST /idempotency-keys': ref('IdempotencyKeyResult'),
  'POST /webhooks': ref('Webhook'),
  'DELETE /webhooks/{id}': ref('Webhook'),
  'GET /webhook_deliveries': obj({ count: { type: 'integer' }, deliveries: arr(ref('Delivery')) }),
  'POST /webhook_deliveries/{id}/retry': ref('Delivery'),
  'GET /audit-log': obj({ entries: arr(ref('AuditEntry')), proof: free }, ['entries', 'proof']),
  'GET /info': free,
};

export const QUERY: Record<string, Schema[]> = {
  'GET /providers': [{ name: 'category', in: 'query', schema: str() }],
  'GET /connectors': ['capability', 'providerId', 'category'].map((name) => ({ name, in: 'query', schema: str() })),
  'GET /stream': [
    { name: 'cursor', in: 'query', schema: { type: 'integer', minimum: 0 } },
    { name: 'Last-Event-ID', in: 'header', schema: str() },
  ],
  'GET /webhook_deliveries': [{ name: 'webhook', in: 'query', schema: { type: 'string', format: 'uuid' } }],
  'GET /audit-log': [
    { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 30 } },
    { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
  ],
};
