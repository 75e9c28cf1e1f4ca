// The components of the OpenAPI document: the contract's records as JSON Schema 2020-12 (OpenAPI 3.1).
import type { Rec } from './http.ts';
import { ENVIRONMENTS } from './state.ts';
import { EVENT_NAMES } from './webhooks.ts';

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
const s = { type: 'string' };
const b = { type: 'boolean' };
const i = { type: 'integer' };
const dt = { type: 'string', format: 'date-time' };
const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
const obj = (properties: Rec, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const list = (field: string, item: string) => obj({ count: i, [field]: { type: 'array', items: ref(item) } });
const page = (item: string) =>
  obj({ items: { type: 'array', items: ref(item) }, count: i, limit: i, offset: i, hasMore: b }, ['items']);

export const SCHEMAS: Rec = {
  Meta: obj({ requestId: s, version: s, at: dt, idempotencyKey: s, replayed: b }, ['requestId', 'version', 'at']),
  Failure: obj({
    ok: { const: false },
    error: obj({ code: { type: 'string', enum: ERROR_CODES }, message: s, detail: s, hint: s }, ['code', 'message']),
    meta: ref('Meta'),
  }),
  Environment: { type: 'string', enum: ENVIRONMENTS },
  Provider: obj({ id: s, name: s, category: s, summary: s }),
  Connector: obj({ id: s, providerId: s, name: s, category: s, capabilities: { type: 'array', items: s } }),
  Capability: obj({ id: s, label: s, critical: b, idempotencyRequired: b }),
  CapabilityDecision: obj({
    connectorId: s,
    capability: s,
    allowed: b,
    critical: b,
    idempotencyRequired: b,
    reason: s,
  }),
  Connection: obj({
    id: s,
    connectorId: s,
    environment: ref('Environment'),
    scopeLabel: s,
    state: { type: 'string', examples: ['ACTIVE', 'PENDING_REVIEW'] },
    capabilities: { type: 'array', items: obj({ capability: s, critical: b, idempotencyRequired: b }) },
    nextStep: s,
    createdAt: dt,
  }),
  RouteInfo: obj({ method: s, path: s, purpose: s, auth: b }),
  SelfDescription: obj({
    service: s,
    surface: s,
    version: s,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  Info: obj({ service: s, version: s, environment: s }, ['service', 'version']),
  ProviderList: list('providers', 'Provider'),
  ConnectorList: list('connectors', 'Connector'),
  CapabilityList: list('capabilities', 'Capability'),
  CapabilityCheck: obj(
    {
      connectorId: { type: 'string', minLength: 2, maxLength: 120 },
      capability: { type: 'string', minLength: 2, maxLength: 120 },
      environment: { ...ref('Environment'), default: 'sandbox' },
    },
    ['connectorId', 'capability'],
  ),
  CapabilityCheckResult: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  ConnectionList: obj({ tenant: s, count: i, connections: { type: 'array', items: ref('Connection') } }),
  ConnectionCreate: obj({
    connectorId: { type: 'string', minLength: 2, maxLength: 120 },
    environment: ref('Environment'),
    scopeLabel: { type: 'string', minLength: 2, maxLength: 120 },
    capabilities: {
      type: 'array',
      minItems: 1,
      maxItems: 24,
      items: { type: 'string', minLength: 2, maxLength: 120 },
    },
  }),
  IdempotencyKeyRequest: obj({ operation: { type: 'string', minLength: 2, maxLength: 80 } }),
  IdempotencyKeyResult: obj({ idempotencyKey: s, operation: s, expiresAt: dt }),
  WebhookCreate: obj({
    url: { type: 'string', format: 'uri' },
    events: { type: 'array', minItems: 1, items: { type: 'string', enum: EVENT_NAMES } },
  }),
  Webhook: obj({ id: i, url: s, events: { type: 'array', items: s }, status: s, createdAt: dt }),
  WebhookCreated: {
    allOf: [ref('Webhook'), obj({ signingKey: { type: 'string', description: 'shown once, store it at once' } })],
  },
  WebhookList: list('items', 'Webhook'),
  Delivery: obj(
    {
      deliveryId: i,
      webhookId: i,
      eventId: s,
      eventType: s,
      status: { type: 'string', enum: ['PENDING', 'DELIVERED', 'FAILED'] },
      attempts: i,
      lastResponseCode: i,
      createdAt: dt,
      lastAttemptAt: dt,
    },
    ['deliveryId', 'webhookId', 'eventId', 'eventType', 'status', 'attempts', 'createdAt'],
  ),
  DeliveryPage: page('Delivery'),
  AuditEntry: obj(
    {
      sequenceNumber: i,
      action: s,
      resourceType: s,
      resourceId: s,
      actor: s,
      requestId: s,
      occurredAt: dt,
      prevRowHash: s,
      rowHash: s,
    },
    ['sequenceNumber', 'action', 'resourceType', 'resourceId', 'occurredAt', 'rowHash'],
  ),
  AuditPage: { allOf: [page('AuditEntry'), obj({ integrity: { type: 'object' } })] },
};
