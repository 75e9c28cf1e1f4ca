// Component schemas of the OpenAPI 3.1 document (the RAML 1.0 data types converted by hand, JSON Schema 2020-12).
const s = { type: 'string' };
const str = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const dt = { type: 'string', format: 'date-time' };
const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const list = (name: string, item: string) =>
  obj({ count: { type: 'integer', minimum: 0 }, [name]: { type: 'array', items: ref(item) } });

export const ERROR_CODES = [
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

export const SCHEMAS: Record<string, unknown> = {
  Environment: { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] },
  Meta: obj(
    {
      requestId: { ...s, description: 'correlation id of the call (also X-Correlation-ID)' },
      version: s,
      at: dt,
      idempotencyKey: s,
      replayed: { type: 'boolean' },
    },
    ['requestId', 'version', 'at'],
  ),
  Failure: obj({
    ok: { const: false },
    error: obj({ code: { type: 'string', enum: ERROR_CODES }, message: s, detail: s, hint: s }, ['code', 'message']),
    meta: ref('Meta'),
  }),
  Provider: obj({ id: s, name: s, category: s, summary: s, region: s }, ['id', 'name', 'category', 'summary']),
  Connector: obj(
    { id: s, providerId: s, name: s, category: s, capabilities: { type: 'array', items: s }, slaTier: s },
    ['id', 'providerId', 'name', 'category', 'capabilities'],
  ),
  Capability: obj(
    { id: s, label: s, critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' }, domain: s },
    ['id', 'label', 'critical', 'idempotencyRequired'],
  ),
  CapabilityDecision: obj({
    connectorId: s,
    capability: s,
    allowed: { type: 'boolean' },
    critical: { type: 'boolean' },
    idempotencyRequired: { type: 'boolean' },
    reason: s,
  }),
  ConnectionCapability: obj({ capability: s, critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
  Connection: obj(
    {
      id: { ...s, format: 'uuid' },
      connectorId: s,
      environment: ref('Environment'),
      scopeLabel: s,
      state: { type: 'string', enum: ['requested', 'active'] },
      capabilities: { type: 'array', items: ref('ConnectionCapability') },
      nextStep: { type: 'string', enum: ['await-provisioning', 'ready-for-traffic'] },
      createdAt: dt,
      updatedAt: dt,
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
  RouteInfo: obj({ method: s, path: s, purpose: s, auth: { type: 'boolean' } }),
  SelfDescription: obj({
    service: s,
    surface: s,
    version: s,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  OpenApiDocument: { type: 'object', description: 'this document' },
  ProviderList: list('providers', 'Provider'),
  ConnectorList: list('connectors', 'Connector'),
  CapabilityList: list('capabilities', 'Capability'),
  CapabilityCheck: {
    ...obj(
      { connectorId: str(2, 120), capability: str(2, 120), environment: { ...ref('Environment'), default: 'sandbox' } },
      ['connectorId', 'capability'],
    ),
    additionalProperties: false,
  },
  CapabilityCheckResult: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  ConnectionList: obj({
    tenant: s,
    count: { type: 'integer', minimum: 0 },
    connections: { type: 'array', items: ref('Connection') },
  }),
  ConnectionCreate: {
    ...obj({
      connectorId: str(2, 120),
      environment: ref('Environment'),
      scopeLabel: str(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
    }),
    additionalProperties: false,
  },
  IdempotencyKeyRequest: { ...obj({ operation: str(2, 80) }), additionalProperties: false },
  IdempotencyKeyResult: obj({
    idempotencyKey: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    operation: s,
    expiresAt: dt,
  }),
  StreamMessage: obj({
    sequence: { type: 'integer' },
    kind: { type: 'string', enum: ['connection.created', 'connection.state-changed'] },
    connectionId: s,
    state: s,
    environment: ref('Environment'),
    occurredAt: dt,
  }),
  WebhookCreate: obj(
    {
      url: { type: 'string', format: 'uri' },
      events: {
        type: 'array',
        minItems: 1,
        items: { type: 'string', enum: ['connection.created', 'connection.activated', 'order.created', 'order.paid'] },
      },
      description: s,
    },
    ['url', 'events'],
  ),
  Webhook: obj(
    {
      id: s,
      url: s,
      events: { type: 'array', items: s },
      status: s,
      createdAt: dt,
      signingKey: { ...s, description: 'issued once: store it at once' },
      signature: { type: 'object' },
      deliveryLog: s,
    },
    ['id', 'url', 'events', 'status', 'createdAt'],
  ),
  WebhookRemoved: obj({ id: s, status: s }),
  Attempt: obj({
    attempt: { type: 'integer' },
    at: dt,
    outcome: s,
    responseStatus: { type: ['integer', 'null'] },
    error: { type: ['string', 'null'] },
    durationMs: { type: 'integer' },
  }),
  Delivery: obj({
    deliveryId: s,
    webhookId: s,
    eventId: s,
    event: s,
    status: { type: 'string', enum: ['queued', 'delivered', 'retrying', 'dead-lettered'] },
    createdAt: dt,
    redeliveryOf: { type: ['string', 'null'] },
    attemptCount: { type: 'integer' },
    attempts: { type: 'array', items: ref('Attempt') },
  }),
  DeliveryLog: obj({ webhookId: s, count: { type: 'integer' }, deliveries: { type: 'array', items: ref('Delivery') } }),
  AuditEntry: obj({
    sequence: { type: 'integer' },
    id: s,
    at: dt,
    action: s,
    actor: s,
    resourceType: s,
    resourceId: s,
    details: { type: 'object' },
    correlationId: s,
    previousHash: s,
    hash: s,
  }),
  AuditLog: obj(
    {
      tenant: s,
      order: { type: 'string', enum: ['newest-first', 'oldest-first'] },
      count: { type: 'integer' },
      entries: { type: 'array', items: ref('AuditEntry') },
      integrity: { type: 'object' },
      nextPage: s,
    },
    ['tenant', 'order', 'count', 'entries', 'integrity'],
  ),
  Info: obj({ tenant: s, clientId: s, environment: ref('Environment'), slaTier: s, rateLimit: { type: 'object' } }),
};
