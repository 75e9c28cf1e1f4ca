// Response schemas of the OpenAPI document, written as the TypeBox models the handlers answer with.
import { ENVIRONMENTS } from './state.ts';
import { type Schema, t } from './validate.ts';

const str = () => t.String();
const ERROR_CODES = [
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
const anyObject: Schema = { type: 'object', additionalProperties: true };

export const components: Record<string, Schema> = {
  Meta: t.Object(
    {
      requestId: str(),
      version: str(),
      at: t.String({ format: 'date-time' }),
      idempotencyKey: str(),
      replayed: t.Boolean(),
    },
    ['idempotencyKey', 'replayed'],
  ),
  Failure: t.Object({
    ok: { type: 'boolean', const: false },
    error: t.Object({ code: t.Enum(ERROR_CODES), message: str(), detail: str(), hint: str() }, ['detail', 'hint']),
    meta: { $ref: '#/components/schemas/Meta' },
  }),
  Provider: t.Object({ id: str(), name: str(), category: str(), summary: str() }),
  Connector: t.Object({ id: str(), providerId: str(), name: str(), category: str(), capabilities: t.Array(str()) }),
  Capability: t.Object({ id: str(), label: str(), critical: t.Boolean(), idempotencyRequired: t.Boolean() }),
  Connection: t.Object({
    id: str(),
    connectorId: str(),
    environment: t.Enum(ENVIRONMENTS),
    scopeLabel: str(),
    state: t.Enum(['pending', 'active', 'paused']),
    capabilities: t.Array(t.Object({ capability: str(), critical: t.Boolean(), idempotencyRequired: t.Boolean() })),
    nextStep: str(),
    createdAt: t.String({ format: 'date-time' }),
  }),
  RouteInfo: t.Object({ method: str(), path: str(), purpose: str(), auth: t.Boolean() }),
  Webhook: t.Object({
    id: str(),
    url: str(),
    events: t.Array(str()),
    status: str(),
    createdAt: t.String({ format: 'date-time' }),
  }),
  Delivery: t.Object({
    id: str(),
    webhookId: str(),
    eventId: str(),
    eventType: str(),
    status: t.Enum(['queued', 'succeeded', 'failed']),
    attempts: t.Integer(),
    responseStatus: { type: ['integer', 'null'] },
    createdAt: t.String({ format: 'date-time' }),
    lastAttemptAt: { type: ['string', 'null'], format: 'date-time' },
    redeliveryOf: { type: ['string', 'null'] },
  }),
};

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const list = (field: string, item: string, extra: Record<string, Schema> = {}) =>
  t.Object({ count: t.Integer(), [field]: t.Array(ref(item)), ...extra });

/** The `data` of each operation's 200 answer. */
export const dataSchemas: Record<string, Schema> = {
  describe: t.Object({
    service: str(),
    surface: str(),
    version: str(),
    authentication: anyObject,
    idempotency: anyObject,
    routes: t.Array(ref('RouteInfo')),
  }),
  info: t.Object({
    clientId: str(),
    environment: str(),
    version: str(),
    tenants: t.Array(str()),
    tokenExpiresAt: t.String({ format: 'date-time' }),
  }),
  listProviders: list('providers', 'Provider'),
  listConnectors: list('connectors', 'Connector'),
  listCapabilities: list('capabilities', 'Capability'),
  checkCapability: t.Object({
    decision: t.Object({
      connectorId: str(),
      capability: str(),
      allowed: t.Boolean(),
      critical: t.Boolean(),
      idempotencyRequired: t.Boolean(),
      reason: str(),
    }),
    environment: t.Enum(ENVIRONMENTS),
  }),
  listConnections: list('connections', 'Connection', { tenant: str() }),
  createConnection: ref('Connection'),
  createIdempotencyKey: t.Object({
    idempotencyKey: str(),
    operation: str(),
    expiresAt: t.String({ format: 'date-time' }),
  }),
  listWebhooks: list('webhooks', 'Webhook', { events: t.Array(str()) }),
  createWebhook: {
    allOf: [ref('Webhook'), t.Object({ secret: t.String({ description: 'signing key, shown in this answer only' }) })],
  },
  getWebhook: ref('Webhook'),
  deleteWebhook: t.Object({ id: str(), deleted: t.Boolean() }),
  listDeliveryAttempts: list('deliveries', 'Delivery', {
    webhookId: str(),
    hasMore: t.Boolean(),
    nextCursor: { type: ['string', 'null'] },
  }),
  retryDeliveryAttempt: ref('Delivery'),
  listAuditLog: t.Object(
    {
      count: t.Integer(),
      entries: t.Array(anyObject),
      hasMore: t.Boolean(),
      nextCursor: { type: ['string', 'null'] },
      proof: anyObject,
    },
    ['hasMore', 'nextCursor'],
  ),
};
