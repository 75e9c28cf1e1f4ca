// JSON Schemas (OpenAPI 3.1 = JSON Schema 2020-12) of birch's payloads.
const s = (type: string, extra: Record<string, unknown> = {}) => ({ type, ...extra });
const str = (min?: number, max?: number) =>
  s('string', { ...(min ? { minLength: min } : {}), ...(max ? { maxLength: max } : {}) });
const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const arr = (items: unknown, extra: Record<string, unknown> = {}) => ({ type: 'array', items, ...extra });
const anyObj = { type: 'object', additionalProperties: true };

export const schemas: Record<string, unknown> = {
  Environment: { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] },
  Meta: obj(
    {
      requestId: str(),
      version: str(),
      at: s('string', { format: 'date-time' }),
      idempotencyKey: str(),
      replayed: s('boolean'),
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
      },
      ['code', 'message'],
    ),
    meta: ref('Meta'),
  }),
  Provider: obj({ id: str(), name: str(), category: str(), summary: str(), website_url: str(), status: str() }, [
    'id',
    'name',
    'category',
    'summary',
  ]),
  Connector: obj(
    {
      id: str(),
      providerId: str(),
      name: str(),
      category: str(),
      capabilities: arr(str()),
      version: str(),
      docs_url: str(),
      unreleased_in: anyObj,
    },
    ['id', 'providerId', 'name', 'category', 'capabilities'],
  ),
  Capability: obj(
    {
      id: str(),
      label: str(),
      critical: s('boolean'),
      idempotencyRequired: s('boolean'),
      description: str(),
      group: str(),
    },
    ['id', 'label', 'critical', 'idempotencyRequired'],
  ),
  CapabilityDecision: obj({
    connectorId: str(),
    capability: str(),
    allowed: s('boolean'),
    critical: s('boolean'),
    idempotencyRequired: s('boolean'),
    reason: str(),
  }),
  CapabilityCheck: obj(
    { connectorId: str(2, 120), capability: str(2, 120), environment: { ...ref('Environment'), default: 'sandbox' } },
    ['connectorId', 'capability'],
  ),
  Connection: obj(
    {
      id: str(),
      connectorId: str(),
      environment: ref('Environment'),
      scopeLabel: str(),
      state: { type: 'string', enum: ['pending_activation', 'active', 'paused'] },
      capabilities: arr(obj({ capability: str(), critical: s('boolean'), idempotencyRequired: s('boolean') })),
      nextStep: str(),
      createdAt: s('string', { format: 'date-time' }),
      updated_at: s('string', { format: 'date-time' }),
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
  ConnectionCreate: obj({
    connectorId: str(2, 120),
    environment: ref('Environment'),
    scopeLabel: str(2, 120),
    capabilities: arr(str(2, 120), { minItems: 1, maxItems: 24 }),
  }),
  RouteInfo: obj({ method: str(), path: str(), purpose: str(), auth: s('boolean') }),
  IdempotencyKeyCreate: obj({ operation: str(2, 80) }),
  IdempotencyKey: obj({ idempotencyKey: str(), operation: str(), expiresAt: s('string', { format: 'date-time' }) }),
  WebhookCreate: obj({ url: s('string', { format: 'uri' }), events: arr(str(), { minItems: 1, maxItems: 20 }) }),
  Webhook: obj(
    {
      id: str(),
      url: str(),
      events: arr(str()),
      status: str(),
      created_at: s('string', { format: 'date-time' }),
      signing_secret: str(),
      signature_header: str(),
    },
    ['id', 'url', 'events', 'status', 'created_at'],
  ),
  Delivery: obj({
    id: str(),
    webhook_id: str(),
    event: str(),
    status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
    attempts: s('integer'),
    response_status: { type: ['integer', 'null'] },
    created_at: str(),
    last_attempt_at: { type: ['string', 'null'] },
    redelivery_of: { type: ['string', 'null'] },
    payload: anyObj,
  }),
  AuditEntry: obj({
    id: str(),
    action: str(),
    actor: str(),
    resource_type: str(),
    resource_id: str(),
    request_id: str(),
    created_at: str(),
    prev_hash: str(),
    entry_hash: str(),
  }),
};

// data schema per route, keyed "METHOD path"
export const dataSchemas: Record<string, unknown> = {
  'GET /api/public/v1': obj({
    service: str(),
    surface: str(),
    version: str(),
    authentication: anyObj,
    idempotency: anyObj,
    routes: arr(ref('RouteInfo')),
  }),
  'GET /api/public/v1/info': anyObj,
  'GET /api/public/v1/providers': obj({ count: s('integer'), providers: arr(ref('Provider')) }),
  'GET /api/public/v1/connectors': obj({ count: s('integer'), connectors: arr(ref('Connector')) }),
  'GET /api/public/v1/capabilities': obj({ count: s('integer'), capabilities: arr(ref('Capability')) }),
  'POST /api/public/v1/capabilities': obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  'GET /api/public/v1/connections': obj({ tenant: str(), count: s('integer'), connections: arr(ref('Connection')) }),
  'POST /api/public/v1/connections': ref('Connection'),
  'GET /api/public/v1/connections/{id}': ref('Connection'),
  'POST /api/public/v1/connections/{id}/pause': ref('Connection'),
  'POST /api/public/v1/connections/{id}/resume': ref('Connection'),
  'POST /api/public/v1/idempotency-keys': ref('IdempotencyKey'),
  'POST /api/public/v1/webhooks': ref('Webhook'),
  'GET /api/public/v1/webhooks': obj({ count: s('integer'), webhooks: arr(ref('Webhook')) }),
  'GET /api/public/v1/webhooks/{id}/deliveries': obj({
    webhook_id: str(),
    count: s('integer'),
    deliveries: arr(ref('Delivery')),
  }),
  'POST /api/public/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver': ref('Delivery'),
  'GET /api/public/v1/audit-log': obj({
    tenant: str(),
    count: s('integer'),
    next: { type: ['string', 'null'], format: 'uri' },
    previous: { type: ['string', 'null'], format: 'uri' },
    results: arr(ref('AuditEntry')),
    integrity: anyObj,
  }),
};

export const requestSchemas: Record<string, string> = {
  'POST /api/public/v1/capabilities': 'CapabilityCheck',
  'POST /api/public/v1/connections': 'ConnectionCreate',
  'POST /api/public/v1/idempotency-keys': 'IdempotencyKeyCreate',
  'POST /api/public/v1/webhooks': 'WebhookCreate',
};
