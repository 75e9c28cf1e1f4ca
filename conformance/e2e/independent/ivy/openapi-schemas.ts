// The inline JSON schemas of openapi.json (API Gateway models, written out where they are used: no $ref):
// the answers' data per operation, the request bodies, the envelopes.

const str = (min?: number, max?: number) => ({
  type: 'string',
  ...(min ? { minLength: min } : {}),
  ...(max ? { maxLength: max } : {}),
});
const dateTime = { type: 'string', format: 'date-time' };
export const ENV = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };
export const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const list = (name: string, item: unknown) =>
  obj({ count: { type: 'integer', minimum: 0 }, [name]: { type: 'array', items: item } });

export const META = obj(
  {
    requestId: { type: 'string' },
    version: { type: 'string' },
    at: dateTime,
    idempotencyKey: { type: 'string' },
    replayed: { type: 'boolean' },
  },
  ['requestId', 'version', 'at'],
);
export const ERROR = obj({
  ok: { type: 'boolean', const: false },
  error: obj(
    { code: { type: 'string' }, message: { type: 'string' }, detail: { type: 'string' }, hint: { type: 'string' } },
    ['code', 'message'],
  ),
  meta: META,
});
const CAPABILITY = obj({
  id: { type: 'string' },
  label: { type: 'string' },
  critical: { type: 'boolean' },
  idempotencyRequired: { type: 'boolean' },
});
const CONNECTION = obj({
  id: { type: 'string' },
  connectorId: { type: 'string' },
  environment: ENV,
  scopeLabel: { type: 'string' },
  state: { type: 'string' },
  capabilities: {
    type: 'array',
    items: obj({
      capability: { type: 'string' },
      critical: { type: 'boolean' },
      idempotencyRequired: { type: 'boolean' },
    }),
  },
  nextStep: { type: 'string' },
  createdAt: dateTime,
});
export const OPEN = { type: 'object', additionalProperties: true };

export const DATA: Record<string, unknown> = {
  describe: obj({
    service: { type: 'string' },
    surface: { type: 'string' },
    version: { type: 'string' },
    authentication: OPEN,
    idempotency: OPEN,
    routes: {
      type: 'array',
      items: obj({
        method: { type: 'string' },
        path: { type: 'string' },
        purpose: { type: 'string' },
        auth: { type: 'boolean' },
      }),
    },
  }),
  info: obj({ tenant: { type: 'string' }, clientId: { type: 'string' }, environment: ENV }),
  listProviders: list(
    'providers',
    obj({
      id: { type: 'string' },
      name: { type: 'string' },
      category: { type: 'string' },
      summary: { type: 'string' },
    }),
  ),
  listConnectors: list(
    'connectors',
    obj({
      id: { type: 'string' },
      providerId: { type: 'string' },
      name: { type: 'string' },
      category: { type: 'string' },
      capabilities: { type: 'array', items: { type: 'string' } },
    }),
  ),
  listCapabilities: list('capabilities', CAPABILITY),
  checkCapability: obj({
    decision: obj({
      connectorId: { type: 'string' },
      capability: { type: 'string' },
      allowed: { type: 'boolean' },
      critical: { type: 'boolean' },
      idempotencyRequired: { type: 'boolean' },
      reason: { type: 'string' },
    }),
    environment: ENV,
  }),
  listConnections: obj({
    tenant: { type: 'string' },
    count: { type: 'integer', minimum: 0 },
    connections: { type: 'array', items: CONNECTION },
  }),
  createConnection: CONNECTION,
  createIdempotencyKey: obj({ idempotencyKey: { type: 'string' }, operation: { type: 'string' }, expiresAt: dateTime }),
  createWebhook: obj({
    id: { type: 'string' },
    url: { type: 'string' },
    events: { type: 'array', items: { type: 'string' } },
    createdAt: dateTime,
    signingKey: { type: 'string' },
  }),
  listWebhookDeliveries: obj({
    webhookId: { type: 'string' },
    count: { type: 'integer', minimum: 0 },
    deliveries: { type: 'array', items: OPEN },
  }),
  retryWebhookDelivery: OPEN,
  readAuditLog: obj(
    {
      tenant: { type: 'string' },
      count: { type: 'integer', minimum: 0 },
      entries: { type: 'array', items: OPEN },
      nextToken: { type: 'string' },
      integrity: obj({ merkleRoot: { type: 'string' }, leafCount: { type: 'integer' }, algorithm: { type: 'string' } }),
    },
    ['tenant', 'count', 'entries', 'integrity'],
  ),
};

export const BODY: Record<string, unknown> = {
  checkCapability: obj({ connectorId: str(2, 120), capability: str(2, 120), environment: ENV }, [
    'connectorId',
    'capability',
  ]),
  createConnection: {
    ...obj({
      connectorId: str(2, 120),
      environment: ENV,
      scopeLabel: str(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
    }),
    additionalProperties: false,
  },
  createIdempotencyKey: obj({ operation: str(2, 80) }),
  createWebhook: {
    ...obj({
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string' } },
    }),
    additionalProperties: false,
  },
};
