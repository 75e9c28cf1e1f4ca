// The component schemas of rowan's OpenAPI document, named as drf-spectacular names serializers
// (*Request for what a client sends, *Response for what it gets); nullable fields as type arrays.
export const ref = (n: string): Record<string, string> => ({ $ref: `#/components/schemas/${n}` });
export const s = (min: number, max: number): Record<string, unknown> => ({
  type: 'string',
  minLength: min,
  maxLength: max,
});
export const obj = (
  props: Record<string, unknown>,
  required: string[] = Object.keys(props),
): Record<string, unknown> => ({
  type: 'object',
  properties: props,
  required,
});

export const SCHEMAS: Record<string, unknown> = {
  EnvironmentEnum: { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] },
  MetaResponse: obj(
    {
      requestId: { type: 'string' },
      version: { type: 'string' },
      at: { type: 'string', format: 'date-time' },
      idempotencyKey: { type: 'string' },
      replayed: { type: 'boolean' },
    },
    ['requestId', 'version', 'at'],
  ),
  ErrorResponse: obj({
    ok: { type: 'boolean', const: false },
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
        message: { type: 'string' },
        detail: { type: 'string' },
        hint: { type: 'string' },
      },
      ['code', 'message'],
    ),
    meta: ref('MetaResponse'),
  }),
  RouteInfoResponse: obj({
    method: { type: 'string' },
    path: { type: 'string' },
    purpose: { type: 'string' },
    auth: { type: 'boolean' },
  }),
  SelfDescriptionResponse: obj({
    service: { type: 'string' },
    surface: { type: 'string' },
    version: { type: 'string' },
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfoResponse') },
  }),
  ProviderResponse: obj({
    id: { type: 'string' },
    name: { type: 'string' },
    category: { type: 'string' },
    summary: { type: 'string' },
    website: { type: ['string', 'null'] },
  }),
  ConnectorResponse: obj({
    id: { type: 'string' },
    providerId: { type: 'string' },
    name: { type: 'string' },
    category: { type: 'string' },
    capabilities: { type: 'array', items: { type: 'string' } },
  }),
  CapabilityResponse: obj({
    id: { type: 'string' },
    label: { type: 'string' },
    critical: { type: 'boolean' },
    idempotencyRequired: { type: 'boolean' },
  }),
  CapabilityCheckRequest: obj({ connectorId: s(2, 120), capability: s(2, 120), environment: ref('EnvironmentEnum') }, [
    'connectorId',
    'capability',
  ]),
  CapabilityDecisionResponse: obj({
    connectorId: { type: 'string' },
    capability: { type: 'string' },
    allowed: { type: 'boolean' },
    critical: { type: 'boolean' },
    idempotencyRequired: { type: 'boolean' },
    reason: { type: 'string' },
  }),
  ConnectionRequest: obj({
    connectorId: s(2, 120),
    environment: ref('EnvironmentEnum'),
    scopeLabel: s(2, 120),
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: s(2, 120) },
  }),
  ConnectionResponse: obj({
    id: { type: 'string' },
    connectorId: { type: 'string' },
    environment: ref('EnvironmentEnum'),
    scopeLabel: { type: 'string' },
    state: { type: 'string', enum: ['new', 'live', 'on_hold'] },
    capabilities: {
      type: 'array',
      items: obj({
        capability: { type: 'string' },
        critical: { type: 'boolean' },
        idempotencyRequired: { type: 'boolean' },
      }),
    },
    nextStep: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  }),
  IdempotencyKeyRequest: obj({ operation: s(2, 80) }),
  IdempotencyKeyResponse: obj({
    idempotencyKey: { type: 'string' },
    operation: { type: 'string' },
    expiresAt: { type: 'string', format: 'date-time' },
  }),
  WebhookRequest: obj({
    url: { type: 'string', format: 'uri', maxLength: 2000 },
    events: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string' } },
  }),
  WebhookResponse: obj({
    id: { type: 'string' },
    url: { type: 'string' },
    events: { type: 'array', items: { type: 'string' } },
    active: { type: 'boolean' },
    secret: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
  }),
  DeliveryResponse: obj(
    {
      id: { type: 'string' },
      webhookId: { type: 'string' },
      eventId: { type: 'string' },
      event: { type: 'string' },
      attempt: { type: 'integer' },
      trigger: { type: 'string' },
      status: { type: 'string' },
      responseStatus: { type: ['integer', 'null'] },
      createdAt: { type: 'string', format: 'date-time' },
      deliveredAt: { type: ['string', 'null'], format: 'date-time' },
    },
    ['id', 'webhookId', 'eventId', 'event', 'status'],
  ),
};
