// JSON Schemas (OpenAPI 3.1) of quince's payloads; additional fields stay allowed, as the interface says.
const S = { type: 'string' };
const DT = { type: 'string', format: 'date-time' };
const B = { type: 'boolean' };
const I = { type: 'integer', minimum: 0 };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  required,
  properties,
});
const len = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const ENV = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };
const list = (name: string, item: string, extra: Record<string, unknown> = {}) =>
  obj({ ...extra, count: I, [name]: { type: 'array', items: ref(item) } });

export const SCHEMAS: Record<string, unknown> = {
  Meta: obj({ requestId: S, version: S, at: DT, idempotencyKey: S, replayed: B }, ['requestId', 'version', 'at']),
  Failure: obj(
    {
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
          message: S,
          detail: S,
          hint: S,
        },
        ['code', 'message'],
      ),
      meta: ref('Meta'),
    },
    ['ok', 'error', 'meta'],
  ),
  RouteInfo: obj({ method: S, path: S, purpose: S, auth: B }),
  Description: obj({
    service: S,
    surface: S,
    version: S,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  Info: obj(
    {
      service: S,
      tenant: S,
      clientId: S,
      environment: ENV,
      region: S,
      tokenExpiresAt: { type: ['string', 'null'], format: 'date-time' },
    },
    ['tenant', 'clientId', 'environment'],
  ),
  Provider: obj({ id: S, name: S, category: S, summary: S }),
  Connector: obj({ id: S, providerId: S, name: S, category: S, capabilities: { type: 'array', items: S } }),
  Capability: obj({ id: S, label: S, critical: B, idempotencyRequired: B }),
  CapabilityDecision: obj({
    connectorId: S,
    capability: S,
    allowed: B,
    critical: B,
    idempotencyRequired: B,
    reason: S,
  }),
  ProviderList: list('providers', 'Provider'),
  ConnectorList: list('connectors', 'Connector'),
  CapabilityList: list('capabilities', 'Capability'),
  CapabilityCheckRequest: obj({ connectorId: len(2, 120), capability: len(2, 120), environment: ENV }, [
    'connectorId',
    'capability',
  ]),
  CapabilityCheck: obj({ decision: ref('CapabilityDecision'), environment: ENV }),
  Connection: obj(
    {
      id: { type: 'string', pattern: '^c-[0-9a-z]{20}$' },
      connectorId: S,
      environment: ENV,
      scopeLabel: S,
      state: { type: 'string', enum: ['CREATING', 'ACTIVE', 'SUSPENDED'] },
      capabilities: { type: 'array', items: obj({ capability: S, critical: B, idempotencyRequired: B }) },
      nextStep: { type: 'string', enum: ['AWAIT_ACTIVATION', 'NONE', 'CONTACT_SUPPORT'] },
      createdAt: DT,
      updateTime: DT,
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
  ConnectionRequest: obj({
    connectorId: len(2, 120),
    environment: ENV,
    scopeLabel: len(2, 120),
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: len(2, 120) },
  }),
  ConnectionList: list('connections', 'Connection', { tenant: S }),
  IdempotencyKeyRequest: obj({ operation: len(2, 80) }),
  IdempotencyKey: obj({ idempotencyKey: S, operation: S, expiresAt: DT }),
  Webhook: obj({ id: S, url: S, events: { type: 'array', items: S }, state: S, createTime: DT }),
  WebhookCreatedRequest: obj({
    url: { type: 'string', format: 'uri', maxLength: 2048 },
    events: {
      type: 'array',
      minItems: 1,
      maxItems: 20,
      items: { type: 'string', enum: ['connection.created', 'connection.activated', 'order.created', 'order.paid'] },
    },
  }),
  WebhookCreated: {
    allOf: [ref('Webhook'), obj({ signingKey: { type: 'string', description: 'HMAC-SHA256 key; shown once' } })],
  },
  WebhookList: list('webhooks', 'Webhook'),
  WebhookDeleted: obj({ id: S, deleted: B }),
  Delivery: obj({
    id: S,
    webhookId: S,
    eventId: S,
    eventType: S,
    status: { type: 'string', enum: ['PENDING', 'RETRYING', 'DELIVERED', 'FAILED'] },
    attemptCount: I,
    lastStatusCode: { type: ['integer', 'null'] },
    attempts: {
      type: 'array',
      items: obj({
        at: DT,
        statusCode: { type: ['integer', 'null'] },
        trigger: { type: 'string', enum: ['PUSH', 'MANUAL'] },
      }),
    },
    createTime: DT,
  }),
  DeliveryList: list('deliveries', 'Delivery', { webhookId: S }),
  DeliveryRetryRequest: { type: 'object', description: 'empty object' },
  DeliveryRetry: obj({ delivery: ref('Delivery'), retry: S, at: DT }),
  AuditEntry: obj({
    sequence: { type: 'integer', minimum: 1 },
    id: S,
    time: DT,
    tenant: S,
    principal: S,
    method: S,
    resource: S,
    requestId: S,
    previousHash: { type: 'string', pattern: '^[0-9a-f]{128}$' },
    hash: { type: 'string', pattern: '^[0-9a-f]{128}$' },
  }),
  AuditLog: obj({
    tenant: S,
    entries: { type: 'array', items: ref('AuditEntry') },
    nextPageToken: { type: 'string', description: 'empty on the last page' },
    proof: obj({ format: S, algorithm: S, description: S, genesisHash: S, headSequence: I, headHash: S }),
  }),
};
