// components/schemas of the OpenAPI document, springdoc style: named schemas, envelopes composed
// with allOf, every limit of the interface written as a constraint.
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer', format: 'int32' };
const dateTime = { type: 'string', format: 'date-time' };
const text = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const env = ref('Environment');
const list = (name: string) => ({ type: 'array', items: ref(name) });
const obj = (required: string[], properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  required,
  properties,
  ...extra,
});

/** A success answer whose data is the named schema: SuccessEnvelope + data. */
export function success(dataSchema: string): unknown {
  return { allOf: [ref('SuccessEnvelope'), obj(['data'], { data: ref(dataSchema) })] };
}

export const SCHEMAS: Record<string, unknown> = {
  Environment: { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] },
  Meta: obj(['requestId', 'version', 'at'], {
    requestId: { ...str, example: 'req_01JDQ4V5X8K2M3N4P5Q6R7S8T9' },
    version: { ...str, example: '2026-07-01' },
    at: dateTime,
    idempotencyKey: str,
    replayed: bool,
  }),
  SuccessEnvelope: obj(['ok', 'data', 'meta'], {
    ok: { type: 'boolean', const: true },
    data: { type: 'object' },
    meta: ref('Meta'),
  }),
  ErrorBody: obj(['code', 'message'], {
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
  FailureEnvelope: obj(['ok', 'error', 'meta'], {
    ok: { type: 'boolean', const: false },
    error: ref('ErrorBody'),
    meta: ref('Meta'),
  }),
  RouteInfo: obj(['method', 'path', 'purpose', 'auth'], { method: str, path: str, purpose: str, auth: bool }),
  ServiceDescription: obj(['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'], {
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object', additionalProperties: true },
    idempotency: { type: 'object', additionalProperties: true },
    routes: list('RouteInfo'),
  }),
  Provider: obj(['id', 'name', 'category', 'summary'], {
    id: { ...str, format: 'uuid' },
    name: str,
    category: str,
    summary: str,
    country: str,
  }),
  Connector: obj(['id', 'providerId', 'name', 'category', 'capabilities'], {
    id: { ...str, format: 'uuid' },
    providerId: { ...str, format: 'uuid' },
    name: str,
    category: str,
    capabilities: { type: 'array', items: str },
    lifecycle: { type: 'string', enum: ['ga', 'beta'] },
  }),
  Capability: obj(['id', 'label', 'critical', 'idempotencyRequired'], {
    id: str,
    label: str,
    critical: bool,
    idempotencyRequired: bool,
    domain: str,
  }),
  CapabilityDecision: obj(['connectorId', 'capability', 'allowed', 'critical', 'idempotencyRequired', 'reason'], {
    connectorId: str,
    capability: str,
    allowed: bool,
    critical: bool,
    idempotencyRequired: bool,
    reason: str,
  }),
  ConnectionCapability: obj(['capability', 'critical', 'idempotencyRequired'], {
    capability: str,
    critical: bool,
    idempotencyRequired: bool,
  }),
  Connection: obj(
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
    {
      id: { ...str, format: 'uuid' },
      connectorId: str,
      environment: env,
      scopeLabel: str,
      state: { type: 'string', enum: ['provisioning', 'active'] },
      capabilities: list('ConnectionCapability'),
      nextStep: str,
      createdAt: dateTime,
      updatedAt: dateTime,
    },
  ),
  ProviderList: obj(['count', 'providers'], { count: int, providers: list('Provider') }),
  ConnectorList: obj(['count', 'connectors'], { count: int, connectors: list('Connector') }),
  CapabilityList: obj(['count', 'capabilities'], { count: int, capabilities: list('Capability') }),
  CapabilityCheckResult: obj(['decision', 'environment'], { decision: ref('CapabilityDecision'), environment: env }),
  ConnectionList: obj(['tenant', 'count', 'connections'], { tenant: str, count: int, connections: list('Connection') }),
  IdempotencyKeyResult: obj(['idempotencyKey', 'operation', 'expiresAt'], {
    idempotencyKey: str,
    operation: str,
    expiresAt: { ...dateTime, description: 'one hour after issue' },
  }),
  Info: obj(['tenant', 'clientId', 'environment'], {
    tenant: str,
    clientId: str,
    environment: env,
    version: str,
    rateLimit: { type: 'object' },
  }),
  WebhookRegistration: obj(['id', 'url', 'events', 'status', 'createdAt', 'secret'], {
    id: { ...str, format: 'uuid' },
    url: str,
    events: { type: 'array', items: str },
    status: str,
    createdAt: dateTime,
    secret: { ...str, description: 'signing key (HMAC-SHA256), returned in this answer only' },
    signatureHeader: str,
  }),
  WebhookRemoval: obj(['id', 'status'], { id: str, status: str }),
  DeliveryAttempt: obj(['at', 'responseStatus'], {
    at: dateTime,
    responseStatus: { type: ['integer', 'null'] },
    error: str,
  }),
  Delivery: obj(['id', 'webhookId', 'eventId', 'event', 'status', 'attemptCount', 'createdAt'], {
    id: str,
    webhookId: str,
    eventId: str,
    event: str,
    status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
    attemptCount: int,
    lastResponseStatus: { type: ['integer', 'null'] },
    attempts: list('DeliveryAttempt'),
    redeliveryOf: { type: ['string', 'null'] },
    createdAt: dateTime,
  }),
  DeliveryList: obj(['webhookId', 'count', 'deliveries'], { webhookId: str, count: int, deliveries: list('Delivery') }),
  AuditEntry: obj(['seq', 'id', 'at', 'action', 'actor', 'target', 'previousHash', 'hash'], {
    seq: { type: 'integer', format: 'int64' },
    id: str,
    at: dateTime,
    tenant: str,
    action: str,
    actor: str,
    target: obj(['type', 'id'], { type: str, id: str }),
    requestId: { type: ['string', 'null'] },
    details: { type: 'object' },
    previousHash: str,
    hash: { ...str, description: 'SHA-256 (hex) over the canonical JSON (members sorted) of the entry without hash' },
  }),
  AuditProof: obj(['algorithm', 'headHash', 'count'], {
    algorithm: { type: 'string', const: 'SHA-256' },
    headHash: str,
    count: int,
  }),
  AuditPage: obj(['tenant', 'count', 'entries', 'proof'], {
    tenant: str,
    count: int,
    entries: list('AuditEntry'),
    next: { type: ['string', 'null'] },
    proof: ref('AuditProof'),
  }),
  CapabilityCheckRequest: obj(['connectorId', 'capability'], {
    connectorId: text(2, 120),
    capability: text(2, 120),
    environment: { ...env, description: 'default sandbox' },
  }),
  ConnectionCreateRequest: obj(['connectorId', 'environment', 'scopeLabel', 'capabilities'], {
    connectorId: text(2, 120),
    environment: env,
    scopeLabel: text(2, 120),
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: text(2, 120) },
  }),
  IdempotencyKeyRequest: obj(['operation'], { operation: text(2, 80) }),
  WebhookCreateRequest: obj(['url', 'events'], {
    url: { type: 'string', format: 'uri', minLength: 8, maxLength: 2048 },
    events: {
      type: 'array',
      minItems: 1,
      maxItems: 20,
      items: { type: 'string', enum: ['connection.created', 'connection.activated', 'order.created', 'order.paid'] },
    },
  }),
};
