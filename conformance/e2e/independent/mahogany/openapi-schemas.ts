// Component schemas of the OpenAPI document (JSON Schema 2020-12, as OpenAPI 3.1 uses it).
import { ENVIRONMENTS, VERSIONS, WEBHOOK_EVENTS } from './options.ts';

type Schema = Record<string, unknown>;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const s = { type: 'string' };
const int = { type: 'integer', minimum: 0 };
const bool = { type: 'boolean' };
const time = { type: 'string', format: 'date-time' };
const len = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const obj = (properties: Record<string, Schema>, required = Object.keys(properties), extra = true): Schema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: extra,
});
const arr = (items: Schema, more: Schema = {}) => ({ type: 'array', items, ...more });
const list = (field: string, item: string) => obj({ count: int, [field]: arr(ref(item)) });
const paged = (field: string, item: string, more: Record<string, Schema> = {}) =>
  obj({ count: int, total: int, skip: int, top: int, [field]: arr(ref(item)), ...more });

export const SCHEMAS: Record<string, Schema> = {
  Meta: obj(
    { requestId: s, version: { type: 'string', enum: [...VERSIONS] }, at: time, idempotencyKey: s, replayed: bool },
    ['requestId', 'version', 'at'],
  ),
  Failure: obj(
    {
      ok: { const: false },
      error: obj({ code: s, message: s, detail: s, hint: s }, ['code', 'message']),
      meta: ref('Meta'),
    },
    ['ok', 'error', 'meta'],
  ),
  Environment: { type: 'string', enum: [...ENVIRONMENTS] },
  RouteInfo: obj({ method: s, path: s, purpose: s, auth: bool }),
  ServiceDescription: obj({
    service: s,
    surface: s,
    version: s,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: arr(ref('RouteInfo')),
  }),
  OpenApiDocument: { type: 'object', description: 'this OpenAPI 3.1 document' },
  Info: obj({ service: s, environment: s, tenant: s, clientId: s, version: s }),
  Provider: obj({ id: s, name: s, category: s, summary: s }),
  Connector: obj({ id: s, providerId: s, name: s, category: s, capabilities: arr(s) }),
  Capability: obj({ id: s, label: s, critical: bool, idempotencyRequired: bool }),
  ProviderList: list('providers', 'Provider'),
  ConnectorList: list('connectors', 'Connector'),
  CapabilityList: list('capabilities', 'Capability'),
  CapabilityCheck: obj({ connectorId: len(2, 120), capability: len(2, 120), environment: ref('Environment') }, [
    'connectorId',
    'capability',
  ]),
  CapabilityDecision: obj({
    connectorId: s,
    capability: s,
    allowed: bool,
    critical: bool,
    idempotencyRequired: bool,
    reason: s,
  }),
  CapabilityCheckResult: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  ConnectionCapability: obj({ capability: s, critical: bool, idempotencyRequired: bool }),
  Connection: obj({
    id: { type: 'string', format: 'uuid' },
    connectorId: s,
    environment: ref('Environment'),
    scopeLabel: s,
    state: { type: 'string', enum: ['ACTIVE', 'PENDING_APPROVAL', 'PAUSED'] },
    capabilities: arr(ref('ConnectionCapability')),
    nextStep: s,
    createdAt: time,
  }),
  ConnectionCreate: obj({
    connectorId: len(2, 120),
    environment: ref('Environment'),
    scopeLabel: len(2, 120),
    capabilities: arr(len(2, 120), { minItems: 1, maxItems: 24 }),
  }),
  ConnectionList: obj({ tenant: s, count: int, connections: arr(ref('Connection')) }),
  IdempotencyKeyRequest: obj({ operation: len(2, 80) }),
  IdempotencyKeyResult: obj({ idempotencyKey: s, operation: s, expiresAt: time }),
  WebhookCreate: obj({
    url: { type: 'string', format: 'uri' },
    events: arr(
      { type: 'string', enum: WEBHOOK_EVENTS },
      { minItems: 1, maxItems: 20, examples: [['connection.created']] },
    ),
  }),
  Webhook: obj({ id: s, url: s, events: arr(s), active: bool, createdAt: time, signatureHeader: s }),
  WebhookCreated: obj(
    {
      id: s,
      url: s,
      events: arr(s),
      active: bool,
      createdAt: time,
      signatureHeader: s,
      signingSecret: { type: 'string', description: 'HMAC-SHA256 signing key, shown in this response only' },
    },
    ['id', 'url', 'events', 'signingSecret'],
  ),
  WebhookList: paged('webhooks', 'Webhook'),
  WebhookDeleted: obj({ id: s, deleted: bool }),
  Delivery: obj(
    {
      id: s,
      webhookId: s,
      eventId: s,
      event: s,
      status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
      attempts: int,
      lastStatusCode: { type: ['integer', 'null'] },
      lastError: { type: ['string', 'null'] },
      createdAt: time,
      lastAttemptAt: { type: ['string', 'null'], format: 'date-time' },
      retriggeredFrom: { type: ['string', 'null'] },
    },
    ['id', 'webhookId', 'eventId', 'event', 'status', 'attempts', 'createdAt'],
  ),
  DeliveryList: paged('deliveries', 'Delivery', { webhookId: s }),
  AuditEntry: obj({
    seq: int,
    id: s,
    at: time,
    tenant: s,
    actor: s,
    action: s,
    entityType: s,
    entityId: s,
    requestId: s,
    prevHash: s,
    hash: s,
  }),
  AuditLog: obj({
    tenant: s,
    count: int,
    total: int,
    entries: arr(ref('AuditEntry')),
    proof: obj({ algorithm: s, head: s, headSeq: int, signature: s, publicKey: { type: 'object' } }),
  }),
};
