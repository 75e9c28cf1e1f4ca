// JSON Schemas of what catalpa serves, for its hand-built OpenAPI 3.1 document (openapi.ts).
const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer', minimum: 0 };
const dateTime = { type: 'string', format: 'date-time' };
const uuidId = {
  type: 'string',
  format: 'uuid',
  pattern: '^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$',
};
const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const list = (items: unknown) => ({ type: 'array', items });

export const ENVIRONMENT = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };

export const SCHEMAS: Record<string, unknown> = {
  Meta: obj(
    {
      requestId: str,
      version: { type: 'string', enum: ['2026-07-01', '2026-06-12'] },
      at: dateTime,
      idempotencyKey: str,
      replayed: bool,
    },
    ['requestId', 'version', 'at'],
  ),
  Error: {
    type: 'object',
    required: ['ok', 'error', 'meta'],
    properties: {
      ok: { const: false },
      error: obj({
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
        message: str,
        detail: str,
        hint: str,
      }),
      meta: ref('Meta'),
    },
  },
  Environment: ENVIRONMENT,
  Provider: obj({ id: str, name: str, category: str, summary: str, status: str }, [
    'id',
    'name',
    'category',
    'summary',
  ]),
  Connector: obj({ id: str, providerId: str, name: str, category: str, capabilities: list(str) }),
  Capability: obj({ id: str, label: str, critical: bool, idempotencyRequired: bool }),
  CapabilityDecision: obj({
    connectorId: str,
    capability: str,
    allowed: bool,
    critical: bool,
    idempotencyRequired: bool,
    reason: str,
  }),
  Connection: obj(
    {
      id: uuidId,
      connectorId: str,
      environment: ref('Environment'),
      scopeLabel: str,
      state: { type: 'string', enum: ['PENDING', 'ENABLED', 'DISABLED'] },
      capabilities: list(obj({ capability: str, critical: bool, idempotencyRequired: bool })),
      nextStep: { type: 'string', enum: ['WAIT_FOR_ACTIVATION', 'NONE', 'CONTACT_SUPPORT'] },
      createdAt: dateTime,
      updatedAt: dateTime,
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  IdempotencyKey: obj({ idempotencyKey: str, operation: str, expiresAt: dateTime }),
  Webhook: obj({
    id: uuidId,
    url: { type: 'string', format: 'uri' },
    events: list(str),
    status: str,
    createdAt: dateTime,
  }),
  Attempt: obj({
    id: uuidId,
    webhookId: uuidId,
    messageId: uuidId,
    eventType: str,
    attemptNumber: { type: 'integer', minimum: 1 },
    trigger: { type: 'string', enum: ['EVENT', 'RETRY', 'RESEND'] },
    status: { type: 'string', enum: ['PENDING', 'SUCCEEDED', 'FAILED'] },
    responseStatus: { type: ['integer', 'null'] },
    attemptedAt: dateTime,
  }),
  AuditEntry: {
    type: 'object',
    required: ['id', 'sequence', 'at', 'action', 'previousHash', 'hash'],
    properties: {
      id: uuidId,
      sequence: { type: 'integer', minimum: 1 },
      at: dateTime,
      tenant: str,
      action: str,
      resourceType: str,
      resourceId: str,
      actor: str,
      requestId: str,
      idempotencyKey: str,
      previousHash: str,
      hash: str,
    },
  },
  Checkpoint: obj({ sequence: int, hash: str, at: { type: ['string', 'null'], format: 'date-time' } }),
};

/** data schemas per operation ("METHOD path"). */
export const DATA: Record<string, unknown> = {
  'GET /api/public/v1': obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: list(ref('RouteInfo')),
  }),
  'GET /api/public/v1/providers': obj({ count: int, providers: list(ref('Provider')) }),
  'GET /api/public/v1/connectors': obj({ count: int, connectors: list(ref('Connector')) }),
  'GET /api/public/v1/capabilities': obj({ count: int, capabilities: list(ref('Capability')) }),
  'POST /api/public/v1/capabilities': obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  'GET /api/public/v1/connections': obj({ tenant: str, count: int, connections: list(ref('Connection')) }),
  'POST /api/public/v1/connections': ref('Connection'),
  'POST /api/public/v1/idempotency-keys': ref('IdempotencyKey'),
  'POST /api/public/v1/webhooks': { allOf: [ref('Webhook'), obj({ signingKey: str })] },
  'GET /api/public/v1/webhooks': obj({ count: int, webhooks: list(ref('Webhook')) }),
  'DELETE /api/public/v1/webhooks/{webhookId}': obj({ id: uuidId, status: { const: 'DELETED' } }),
  'GET /api/public/v1/webhooks/{webhookId}/attempts': obj({
    webhookId: uuidId,
    count: int,
    attempts: list(ref('Attempt')),
  }),
  'POST /api/public/v1/webhooks/{webhookId}/attempts/{attemptId}/resend': ref('Attempt'),
  'GET /api/public/v1/audit-log': obj(
    {
      tenant: str,
      order: str,
      count: int,
      entries: list(ref('AuditEntry')),
      nextCursor: { type: ['string', 'null'] },
      checkpoint: ref('Checkpoint'),
      integrity: { type: 'object' },
    },
    ['count', 'entries', 'checkpoint'],
  ),
  'GET /api/public/v1/info': obj({ tenant: str, clientId: str, environment: str, released: bool }),
};

const text = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });

/** Request bodies (all closed: unknown fields are refused). */
export const BODIES: Record<string, unknown> = {
  'POST /api/public/v1/capabilities': {
    ...obj(
      { connectorId: text(2, 120), capability: text(2, 120), environment: { ...ENVIRONMENT, default: 'sandbox' } },
      ['connectorId', 'capability'],
    ),
    additionalProperties: false,
  },
  'POST /api/public/v1/connections': {
    ...obj({
      connectorId: text(2, 120),
      environment: ref('Environment'),
      scopeLabel: text(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: text(2, 120) },
    }),
    additionalProperties: false,
  },
  'POST /api/public/v1/idempotency-keys': { ...obj({ operation: text(2, 80) }), additionalProperties: false },
  'POST /api/public/v1/webhooks': {
    ...obj({
      url: { type: 'string', format: 'uri', maxLength: 2048 },
      events: {
        type: 'array',
        minItems: 1,
        maxItems: 5,
        items: {
          type: 'string',
          enum: ['connection.created', 'connection.enabled', 'connection.disabled', 'order.created', 'order.paid'],
        },
      },
    }),
    additionalProperties: false,
  },
};
