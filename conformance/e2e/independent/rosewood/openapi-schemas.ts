// Component schemas of the OpenAPI document, written by hand the way the team keeps its `openapi.yml` beside
// the Swift models (no generator: VaporOpenAPI was not adopted).
import type { Rec } from './http.ts';

const str = (min?: number, max?: number): Rec => ({ type: 'string', minLength: min, maxLength: max });
const ref = (name: string): Rec => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Rec, required: string[] = Object.keys(properties)): Rec => ({
  type: 'object',
  properties,
  required,
});

const CODES = [
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

export const ENV = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };

export const SCHEMAS: Rec = {
  Meta: {
    ...obj(
      {
        requestId: { type: 'string' },
        version: { type: 'string' },
        at: { type: 'string', format: 'date-time' },
        idempotencyKey: { type: 'string' },
        replayed: { type: 'boolean' },
      },
      ['requestId', 'version', 'at'],
    ),
  },
  Error: obj(
    {
      ok: { const: false },
      error: obj(
        {
          code: { type: 'string', enum: CODES },
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
  Environment: ENV,
  Provider: obj({ id: str(), name: str(), category: str(), summary: str() }),
  Connector: obj({
    id: str(),
    providerId: str(),
    name: str(),
    category: str(),
    capabilities: { type: 'array', items: { type: 'string' } },
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
    id: { type: 'string', format: 'uuid' },
    connectorId: str(),
    environment: ref('Environment'),
    scopeLabel: str(),
    state: { type: 'string', examples: ['active', 'pendingReview', 'paused'] },
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
  CheckRequest: obj({ connectorId: str(2, 120), capability: str(2, 120), environment: ref('Environment') }, [
    'connectorId',
    'capability',
  ]),
  CreateConnection: obj({
    connectorId: str(2, 120),
    environment: ref('Environment'),
    scopeLabel: str(2, 120),
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
  }),
  CreateKey: obj({ operation: str(2, 80) }),
  CreateWebhook: obj({
    url: { type: 'string', format: 'uri' },
    events: {
      type: 'array',
      minItems: 1,
      items: { type: 'string', enum: ['connection.created', 'connection.updated', 'order.created', 'order.paid'] },
    },
  }),
  Webhook: obj(
    {
      id: { type: 'string', format: 'uuid' },
      url: str(),
      events: { type: 'array', items: str() },
      createdAt: { type: 'string', format: 'date-time' },
      signatureHeader: str(),
      secret: { type: 'string', description: 'Signing key, present in the creation answer only.' },
    },
    ['id', 'url', 'events', 'createdAt'],
  ),
  Attempt: obj(
    {
      id: { type: 'string', format: 'uuid' },
      webhookId: str(),
      eventId: str(),
      eventType: str(),
      attempt: { type: 'integer' },
      statusCode: { type: ['integer', 'null'] },
      success: { type: 'boolean' },
      createdAt: { type: 'string', format: 'date-time' },
      redeliveryOf: { type: ['string', 'null'] },
    },
    ['id', 'webhookId', 'eventId', 'eventType', 'attempt', 'success', 'createdAt'],
  ),
  AuditEntry: obj(
    {
      id: str(),
      sequence: { type: 'integer' },
      action: str(),
      resourceType: str(),
      resourceId: str(),
      actor: str(),
      requestId: str(),
      createdAt: { type: 'string', format: 'date-time' },
      digest: { type: 'string', description: 'hex SHA-256 of the entry (without digest) as sorted-key JSON' },
    },
    ['id', 'sequence', 'action', 'resourceId', 'createdAt', 'digest'],
  ),
};
