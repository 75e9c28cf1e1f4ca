// JSON Schemas (OpenAPI 3.1 dialect) of what atlas serves, keyed by operation.
const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer', minimum: 0 };
const dateTime = { type: 'string', format: 'date-time' };
const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const arr = (items: unknown) => ({ type: 'array', items });
const ENV = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };

export const SCHEMAS: Record<string, unknown> = {
  Meta: obj({ requestId: str, version: str, at: dateTime, idempotencyKey: str, replayed: bool }, [
    'requestId',
    'version',
    'at',
  ]),
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
        message: str,
        detail: str,
        hint: str,
      },
      ['code', 'message'],
    ),
    meta: ref('Meta'),
  }),
  Environment: ENV,
  Provider: obj({ id: str, name: str, category: str, summary: str, countryCode: str }, [
    'id',
    'name',
    'category',
    'summary',
  ]),
  Connector: obj({ id: str, providerId: str, name: str, category: str, capabilities: arr(str), protocol: str }, [
    'id',
    'providerId',
    'name',
    'category',
    'capabilities',
  ]),
  Capability: obj(
    {
      id: str,
      label: str,
      critical: bool,
      idempotencyRequired: bool,
      description: str,
      restrictedEnvironments: arr(ENV),
    },
    ['id', 'label', 'critical', 'idempotencyRequired'],
  ),
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
      id: { type: 'string', pattern: '^CON-[0-9A-F]{10}$' },
      connectorId: str,
      environment: ref('Environment'),
      scopeLabel: str,
      state: { type: 'string', enum: ['PROVISIONING', 'ACTIVE', 'SUSPENDED'] },
      capabilities: arr(obj({ capability: str, critical: bool, idempotencyRequired: bool })),
      nextStep: { type: 'string', enum: ['WAIT_FOR_ACTIVATION', 'NONE', 'CONTACT_ACCOUNT_MANAGER'] },
      createdAt: dateTime,
      stateChangedAt: dateTime,
      revision: { type: 'integer', minimum: 1 },
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  IdempotencyKeyResult: obj({ idempotencyKey: str, operation: str, expiresAt: dateTime }),
  SigningKey: obj({ keyId: str, algorithm: { const: 'HMAC-SHA256' }, notAfter: dateTime, secret: str }, [
    'keyId',
    'algorithm',
    'notAfter',
  ]),
  Subscription: obj({
    subscriptionId: str,
    callbackUrl: str,
    eventTypes: arr(str),
    status: { type: 'string', enum: ['ACTIVE', 'DELETED'] },
    createdAt: dateTime,
    signingKey: ref('SigningKey'),
  }),
  DeliveryAttempt: obj({
    attemptId: str,
    deliveryId: str,
    eventId: str,
    eventType: str,
    attemptNumber: { type: 'integer', minimum: 1 },
    trigger: { type: 'string', enum: ['AUTOMATIC', 'MANUAL'] },
    status: { type: 'string', enum: ['PENDING', 'SUCCEEDED', 'FAILED'] },
    responseStatusCode: { type: ['integer', 'null'] },
    failureReason: { type: ['string', 'null'] },
    requestedAt: dateTime,
    completedAt: { oneOf: [dateTime, { type: 'null' }] },
  }),
  AuditEntry: obj({
    sequence: { type: 'integer', minimum: 1 },
    occurredAt: dateTime,
    actor: obj({ type: str, id: str }),
    action: str,
    resource: obj({ type: str, id: str }),
    outcome: str,
    requestId: str,
    digest: { type: 'string', pattern: '^[0-9a-f]{128}$' },
  }),
};

/** data schema of each operation's 200 answer. */
export const DATA: Record<string, unknown> = {
  'GET /api/public/v1': obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: arr(ref('RouteInfo')),
  }),
  'GET /api/public/v1/info': obj({
    clientId: str,
    tenant: str,
    environment: str,
    scopes: arr(str),
    tokenExpiresAt: dateTime,
    purpose: str,
    owner: str,
    credentialExpiresAt: dateTime,
  }),
  'GET /api/public/v1/providers': obj({ count: int, providers: arr(ref('Provider')) }),
  'GET /api/public/v1/connectors': obj({ count: int, connectors: arr(ref('Connector')) }),
  'GET /api/public/v1/capabilities': obj({ count: int, capabilities: arr(ref('Capability')) }),
  'POST /api/public/v1/capabilities': obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  'GET /api/public/v1/connections': obj({ tenant: str, count: int, connections: arr(ref('Connection')) }),
  'POST /api/public/v1/connections': ref('Connection'),
  'POST /api/public/v1/idempotency-keys': ref('IdempotencyKeyResult'),
  'POST /api/public/v1/webhooks': ref('Subscription'),
  'GET /api/public/v1/webhooks': obj({ count: int, subscriptions: arr(ref('Subscription')) }),
  'GET /api/public/v1/webhooks/{subscriptionId}': ref('Subscription'),
  'DELETE /api/public/v1/webhooks/{subscriptionId}': obj({ subscriptionId: str, status: { const: 'DELETED' } }),
  'GET /api/public/v1/webhooks/{subscriptionId}/delivery-attempts': obj({
    subscriptionId: str,
    count: int,
    attempts: arr(ref('DeliveryAttempt')),
  }),
  'POST /api/public/v1/webhook-deliveries/{deliveryId}/retrigger': ref('DeliveryAttempt'),
  'GET /api/public/v1/audit-log': obj(
    {
      tenant: str,
      items: arr(ref('AuditEntry')),
      pageSize: { type: 'integer', minimum: 1 },
      nextPageToken: str,
      integrity: obj({ scheme: str, anchorDigest: str, headDigest: str, rule: str }),
    },
    ['tenant', 'items', 'pageSize', 'integrity'],
  ),
};

const text = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
export const BODIES: Record<string, unknown> = {
  'POST /api/public/v1/capabilities': obj(
    { connectorId: text(2, 120), capability: text(2, 120), environment: { ...ENV, default: 'sandbox' } },
    ['connectorId', 'capability'],
  ),
  'POST /api/public/v1/connections': {
    ...obj({
      connectorId: text(2, 120),
      environment: ENV,
      scopeLabel: text(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: text(2, 120) },
    }),
    additionalProperties: false,
  },
  'POST /api/public/v1/idempotency-keys': obj({ operation: text(2, 80) }),
  'POST /api/public/v1/webhooks': {
    ...obj(
      {
        url: { type: 'string', format: 'uri', maxLength: 2048 },
        events: { type: 'array', minItems: 1, maxItems: 20, items: str },
        description: str,
      },
      ['url', 'events'],
    ),
    additionalProperties: false,
  },
};

const qp = (name: string, schema: unknown) => ({ name, in: 'query', required: false, schema });
export const QUERY: Record<string, unknown[]> = {
  'GET /api/public/v1/providers': [qp('category', str)],
  'GET /api/public/v1/connectors': [qp('capability', str), qp('providerId', str), qp('category', str)],
  'GET /api/public/v1/stream': [
    qp('cursor', { type: 'integer', minimum: 0 }),
    { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string', pattern: '^[0-9]+$' } },
  ],
  'GET /api/public/v1/audit-log': [
    qp('limit', { type: 'integer', minimum: 1, maximum: 200, default: 50 }),
    qp('pageToken', str),
  ],
};
