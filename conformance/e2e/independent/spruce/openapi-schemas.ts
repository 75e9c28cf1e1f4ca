// JSON Schemas of the OpenAPI document (components.schemas), written from the contract's tables.
const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer', minimum: 0 };
const dateTime = { type: 'string', format: 'date-time' };
const env = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };
const text = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const list = (name: string, item: unknown) => obj({ count: int, [name]: { type: 'array', items: item } });

export const SCHEMAS: Record<string, unknown> = {
  Meta: obj({ requestId: str, version: str, at: dateTime, idempotencyKey: str, replayed: bool }, [
    'requestId',
    'version',
    'at',
  ]),
  Error: obj(
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
      message: str,
      detail: str,
      hint: str,
      target: str,
    },
    ['code', 'message'],
  ),
  Failure: obj({ ok: { type: 'boolean', const: false }, error: ref('Error'), meta: ref('Meta') }),
  Environment: env,
  Provider: obj({ id: str, name: str, category: str, summary: str, region: str }, [
    'id',
    'name',
    'category',
    'summary',
  ]),
  Connector: obj(
    { id: str, providerId: str, name: str, category: str, capabilities: { type: 'array', items: str }, lifecycle: str },
    ['id', 'providerId', 'name', 'category', 'capabilities'],
  ),
  Capability: obj({ id: str, label: str, critical: bool, idempotencyRequired: bool, description: str }, [
    'id',
    'label',
    'critical',
    'idempotencyRequired',
  ]),
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
      id: { type: 'string', format: 'uuid' },
      connectorId: str,
      environment: ref('Environment'),
      scopeLabel: str,
      state: { type: 'string', description: 'Accepted, then Succeeded once provisioned.' },
      capabilities: { type: 'array', items: obj({ capability: str, critical: bool, idempotencyRequired: bool }) },
      nextStep: { type: 'string', description: 'waitForProvisioning or none.' },
      createdAt: dateTime,
      updatedAt: dateTime,
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  IdempotencyKeyResult: obj({ idempotencyKey: str, operation: str, expiresAt: dateTime }),
  ServiceDescription: obj(
    {
      service: str,
      surface: str,
      version: str,
      authentication: { type: 'object' },
      idempotency: { type: 'object' },
      routes: { type: 'array', items: ref('RouteInfo') },
    },
    ['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'],
  ),
  ProviderList: list('providers', ref('Provider')),
  ConnectorList: list('connectors', ref('Connector')),
  CapabilityList: list('capabilities', ref('Capability')),
  ConnectionList: {
    ...list('connections', ref('Connection')),
    properties: { tenant: str, count: int, connections: { type: 'array', items: ref('Connection') } },
    required: ['tenant', 'count', 'connections'],
  },
  CapabilityCheckResult: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  Webhook: obj({ id: str, url: str, events: { type: 'array', items: str }, status: str, createdAt: dateTime }),
  WebhookCreated: {
    allOf: [
      ref('Webhook'),
      obj({
        signatureHeader: str,
        secret: obj({ value: { type: ['string', 'null'] }, algorithm: str, note: str }, ['value', 'algorithm']),
      }),
    ],
  },
  WebhookList: list('webhooks', ref('Webhook')),
  WebhookDeleted: obj({ id: str, status: str }),
  DeliveryAttempt: obj({
    id: str,
    webhookId: str,
    messageId: str,
    eventIds: { type: 'array', items: str },
    eventTypes: { type: 'array', items: str },
    deliveryCount: { type: 'integer', minimum: 1 },
    trigger: { type: 'string', enum: ['event', 'retry', 'manual'] },
    status: { type: 'string', enum: ['Queued', 'Succeeded', 'Failed'] },
    responseStatus: { type: ['integer', 'null'] },
    error: { type: ['string', 'null'] },
    createdAt: dateTime,
    completedAt: { type: ['string', 'null'], format: 'date-time' },
  }),
  DeliveryAttemptList: {
    type: 'object',
    properties: { webhookId: str, count: int, attempts: { type: 'array', items: ref('DeliveryAttempt') } },
    required: ['webhookId', 'count', 'attempts'],
  },
  DeliveryAttemptRetried: obj({ attempt: ref('DeliveryAttempt'), signatureHeader: str }),
  AuditEntry: obj(
    {
      sequence: { type: 'integer', minimum: 1 },
      id: str,
      at: dateTime,
      action: str,
      actor: str,
      target: obj({ type: str, id: str }),
      requestId: str,
      idempotencyKey: str,
      previousHash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      hash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    },
    ['sequence', 'id', 'at', 'action', 'actor', 'target', 'requestId', 'previousHash', 'hash'],
  ),
  AuditLog: obj(
    {
      tenant: str,
      order: { type: 'string', enum: ['newestFirst', 'oldestFirst'] },
      count: int,
      entries: { type: 'array', items: ref('AuditEntry') },
      nextLink: { type: 'string', format: 'uri' },
      proof: { type: 'object' },
    },
    ['tenant', 'order', 'count', 'entries', 'proof'],
  ),
  Info: obj({
    tenant: str,
    clientId: str,
    environment: ref('Environment'),
    roles: { type: 'array', items: str },
    tokenExpiresAt: { type: ['string', 'null'], format: 'date-time' },
    purpose: str,
    owner: str,
  }),
  CapabilityCheckRequest: obj(
    { connectorId: text(2, 120), capability: text(2, 120), environment: { ...env, default: 'sandbox' } },
    ['connectorId', 'capability'],
  ),
  ConnectionCreateRequest: obj({
    connectorId: text(2, 120),
    environment: ref('Environment'),
    scopeLabel: text(2, 120),
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: text(2, 120) },
  }),
  IdempotencyKeyRequest: obj({ operation: text(2, 80) }),
  WebhookCreateRequest: obj({
    url: { type: 'string', format: 'uri', minLength: 8, maxLength: 2048 },
    events: {
      type: 'array',
      minItems: 1,
      maxItems: 16,
      items: { type: 'string', enum: ['connection.created', 'connection.provisioned', 'order.created', 'order.paid'] },
    },
  }),
};

/** Which data schema, request schema and query parameters each operation has. */
export const OPERATION_SCHEMAS: Record<string, { data?: string; body?: string; query?: Record<string, unknown> }> = {
  ServiceDescription_Get: { data: 'ServiceDescription' },
  Info_Get: { data: 'Info' },
  Providers_List: { data: 'ProviderList', query: { category: str } },
  Connectors_List: { data: 'ConnectorList', query: { capability: str, providerId: str, category: str } },
  Capabilities_List: { data: 'CapabilityList' },
  Capabilities_Check: { data: 'CapabilityCheckResult', body: 'CapabilityCheckRequest' },
  Connections_List: { data: 'ConnectionList' },
  Connections_Create: { data: 'Connection', body: 'ConnectionCreateRequest' },
  Connections_Get: { data: 'Connection' },
  IdempotencyKeys_Create: { data: 'IdempotencyKeyResult', body: 'IdempotencyKeyRequest' },
  Stream_Get: { query: { cursor: { type: 'integer', minimum: 0 } } },
  Webhooks_Create: { data: 'WebhookCreated', body: 'WebhookCreateRequest' },
  Webhooks_List: { data: 'WebhookList' },
  Webhooks_Get: { data: 'Webhook' },
  Webhooks_Delete: { data: 'WebhookDeleted' },
  DeliveryAttempts_List: { data: 'DeliveryAttemptList' },
  DeliveryAttempts_Retry: { data: 'DeliveryAttemptRetried' },
  AuditLog_List: {
    data: 'AuditLog',
    query: {
      limit: { type: 'integer', minimum: 1, maximum: 500, default: 25 },
      before: { type: 'integer', minimum: 1 },
      after: { type: 'integer', minimum: 0 },
    },
  },
};
