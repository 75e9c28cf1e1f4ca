// Component schemas of the OpenAPI document, written by hand from the interface's field tables.
const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer' };
const time = { type: 'string', format: 'date-time' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (required: string[], properties: Record<string, unknown>) => ({ type: 'object', required, properties });
const text = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const list = (name: string, field: string, extra: Record<string, unknown> = {}) =>
  obj(['count', field, ...Object.keys(extra)], { ...extra, count: int, [field]: { type: 'array', items: ref(name) } });

export const SCHEMAS: Record<string, unknown> = {
  Environment: { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] },
  Meta: obj(['requestId', 'version', 'at'], {
    requestId: { type: 'string', description: 'ULID of this call' },
    version: str,
    at: time,
    idempotencyKey: str,
    replayed: bool,
  }),
  Failure: obj(['ok', 'error', 'meta'], {
    ok: { type: 'boolean', const: false },
    error: obj(['code', 'message'], {
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
  }),
  RouteInfo: obj(['method', 'path', 'purpose', 'auth'], { method: str, path: str, purpose: str, auth: bool }),
  SelfDescription: obj(['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'], {
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  Info: obj(['service', 'version', 'environment'], {
    service: str,
    version: str,
    environment: ref('Environment'),
    tenant: str,
    clientId: str,
    tokenExpiresAt: time,
    rateLimit: { type: 'object' },
  }),
  Provider: obj(['id', 'name', 'category', 'summary'], {
    id: str,
    name: str,
    category: str,
    summary: str,
    website: str,
  }),
  Connector: obj(['id', 'providerId', 'name', 'category', 'capabilities'], {
    id: str,
    providerId: str,
    name: str,
    category: str,
    capabilities: { type: 'array', items: str },
    status: str,
  }),
  Capability: obj(['id', 'label', 'critical', 'idempotencyRequired'], {
    id: str,
    label: str,
    critical: bool,
    idempotencyRequired: bool,
    description: str,
  }),
  ProviderList: list('Provider', 'providers'),
  ConnectorList: list('Connector', 'connectors'),
  CapabilityList: list('Capability', 'capabilities'),
  CapabilityCheck: {
    ...obj(['connectorId', 'capability'], {
      connectorId: text(2, 120),
      capability: text(2, 120),
      environment: { ...ref('Environment'), default: 'sandbox' },
    }),
    additionalProperties: false,
  },
  CapabilityDecision: obj(['connectorId', 'capability', 'allowed', 'critical', 'idempotencyRequired', 'reason'], {
    connectorId: str,
    capability: str,
    allowed: bool,
    critical: bool,
    idempotencyRequired: bool,
    reason: str,
  }),
  CapabilityCheckResult: obj(['decision', 'environment'], {
    decision: ref('CapabilityDecision'),
    environment: ref('Environment'),
  }),
  ConnectionCapability: obj(['capability', 'critical', 'idempotencyRequired'], {
    capability: str,
    critical: bool,
    idempotencyRequired: bool,
  }),
  Connection: obj(
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
    {
      id: { type: 'string', pattern: '^conn_[0-9A-HJKMNP-TV-Z]{26}$' },
      connectorId: str,
      environment: ref('Environment'),
      scopeLabel: str,
      state: { type: 'string', enum: ['requested', 'provisioning', 'live', 'suspended'] },
      capabilities: { type: 'array', items: ref('ConnectionCapability') },
      nextStep: str,
      createdAt: time,
      updatedAt: time,
    },
  ),
  ConnectionList: list('Connection', 'connections', { tenant: str }),
  ConnectionCreate: {
    ...obj(['connectorId', 'environment', 'scopeLabel', 'capabilities'], {
      connectorId: text(2, 120),
      environment: ref('Environment'),
      scopeLabel: text(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: text(2, 120) },
    }),
    additionalProperties: false,
  },
  IdempotencyKeyRequest: { ...obj(['operation'], { operation: text(2, 80) }), additionalProperties: false },
  IdempotencyKeyResult: obj(['idempotencyKey', 'operation', 'expiresAt'], {
    idempotencyKey: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    operation: str,
    expiresAt: time,
  }),
  WebhookCreate: {
    ...obj(['url', 'events'], {
      url: { type: 'string', format: 'uri', minLength: 10, maxLength: 2048 },
      events: {
        type: 'array',
        minItems: 1,
        maxItems: 20,
        items: {
          type: 'string',
          enum: ['connection.created', 'connection.state_changed', 'order.created', 'order.paid'],
        },
      },
    }),
    additionalProperties: false,
  },
  Webhook: obj(['id', 'url', 'events', 'status', 'createdAt'], {
    id: str,
    url: str,
    events: { type: 'array', items: str },
    status: str,
    createdAt: time,
  }),
  WebhookCreated: {
    allOf: [
      ref('Webhook'),
      obj(['secret'], { secret: { type: 'string', description: 'signing key, shown in this answer only' } }),
    ],
  },
  WebhookDeleted: obj(['id', 'deleted'], { id: str, deleted: bool }),
  Attempt: obj(['at', 'outcome', 'responseStatus'], {
    at: time,
    outcome: { type: 'string', enum: ['succeeded', 'failed'] },
    responseStatus: { type: ['integer', 'null'] },
  }),
  Delivery: obj(['id', 'webhookId', 'eventId', 'eventType', 'status', 'attempts', 'createdAt'], {
    id: str,
    webhookId: str,
    eventId: str,
    eventType: str,
    status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
    attempts: { type: 'array', items: ref('Attempt') },
    attemptCount: int,
    createdAt: time,
    redeliveryOf: { type: ['string', 'null'] },
  }),
  DeliveryList: list('Delivery', 'deliveries', { webhookId: str }),
  AuditEntry: obj(['id', 'sequence', 'at', 'action', 'resourceId', 'prevHash', 'hash'], {
    id: str,
    sequence: int,
    at: time,
    tenant: str,
    actor: str,
    action: str,
    resourceType: str,
    resourceId: str,
    requestId: str,
    details: { type: 'object' },
    prevHash: str,
    hash: str,
  }),
  AuditPage: obj(['count', 'entries', 'next_cursor', 'proof'], {
    count: int,
    entries: { type: 'array', items: ref('AuditEntry') },
    next_cursor: { type: ['string', 'null'] },
    proof: { type: ['object', 'null'], description: 'JWS (EdDSA) over the newest entry hash' },
  }),
  AuditKeys: obj(['keys'], { keys: { type: 'array', items: { type: 'object' } } }),
};
