// The component schemas of the OpenAPI document, as `bal openapi` derives them from the service's records.
import { ENVIRONMENTS, EVENT_NAMES, type Rec } from './state.ts';

const s = { type: 'string' };
const b = { type: 'boolean' };
const i = { type: 'integer' };
const dt = { type: 'string', format: 'date-time' };
const ref = (n: string): Rec => ({ $ref: `#/components/schemas/${n}` });
const obj = (properties: Rec, required: string[] = Object.keys(properties)): Rec => ({
  type: 'object',
  required,
  properties,
});
const list = (name: string, item: string): Rec => obj({ count: i, [name]: { type: 'array', items: ref(item) } });

export const SCHEMAS: Rec = {
  Meta: obj({ requestId: s, version: s, at: dt, idempotencyKey: s, replayed: b }, ['requestId', 'version', 'at']),
  ErrorEnvelope: obj({
    ok: { const: false },
    error: obj(
      {
        code: {
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
        message: s,
        detail: s,
        hint: s,
      },
      ['code', 'message'],
    ),
    meta: ref('Meta'),
  }),
  Environment: { type: 'string', enum: [...ENVIRONMENTS] },
  Provider: obj({ id: s, name: s, category: s, summary: s, country: s }, ['id', 'name', 'category', 'summary']),
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
    id: { type: 'string', format: 'uuid' },
    connectorId: s,
    environment: ref('Environment'),
    scopeLabel: s,
    state: { type: 'string', enum: ['PROVISIONING', 'ACTIVE', 'PENDING_REVIEW', 'PAUSED'] },
    capabilities: { type: 'array', items: obj({ capability: s, critical: b, idempotencyRequired: b }) },
    nextStep: s,
    createdAt: dt,
  }),
  RouteInfo: obj({ method: s, path: s, purpose: s, auth: b }),
  IdempotencyKeyResult: obj({ idempotencyKey: s, operation: s, expiresAt: dt }),
  Webhook: obj(
    {
      id: s,
      url: s,
      events: { type: 'array', items: { enum: [...EVENT_NAMES] } },
      status: s,
      createdAt: dt,
      signingKey: { type: 'string', description: 'Issued once, in the answer to the registration only.' },
    },
    ['id', 'url', 'events', 'status', 'createdAt'],
  ),
  DeliveryAttempt: obj({
    id: s,
    eventId: s,
    event: s,
    status: { enum: ['PENDING', 'DELIVERED', 'FAILED', 'SKIPPED'] },
    attempts: i,
    responseStatusCode: { type: ['integer', 'null'] },
    createdAt: dt,
    lastAttemptAt: { type: ['string', 'null'], format: 'date-time' },
    redeliveryOf: { type: ['string', 'null'] },
  }),
  AuditEntry: obj({
    id: s,
    sequenceNo: i,
    action: s,
    resourceType: s,
    resourceId: s,
    actor: s,
    occurredAt: dt,
    previousHash: s,
    entryHash: s,
  }),
  ProviderList: list('providers', 'Provider'),
  ConnectorList: list('connectors', 'Connector'),
  CapabilityList: list('capabilities', 'Capability'),
  ConnectionList: obj({ tenant: s, count: i, connections: { type: 'array', items: ref('Connection') } }),
  WebhookList: list('webhooks', 'Webhook'),
  DeliveryAttemptList: obj({
    webhookId: s,
    count: i,
    deliveryAttempts: { type: 'array', items: ref('DeliveryAttempt') },
  }),
  AuditPage: obj({
    tenant: s,
    count: i,
    total: i,
    limit: i,
    offset: i,
    order: s,
    nextOffset: { type: ['integer', 'null'] },
    entries: { type: 'array', items: ref('AuditEntry') },
    integrity: { type: 'object' },
  }),
  Decision: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  SelfDescription: obj({
    service: s,
    surface: s,
    version: s,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  Info: { type: 'object' },
  CapabilityCheck: obj(
    {
      connectorId: { type: 'string', minLength: 2, maxLength: 120 },
      capability: { type: 'string', minLength: 2, maxLength: 120 },
      environment: ref('Environment'),
    },
    ['connectorId', 'capability'],
  ),
  ConnectionCreate: obj({
    connectorId: { type: 'string', minLength: 2, maxLength: 120 },
    environment: ref('Environment'),
    scopeLabel: { type: 'string', minLength: 2, maxLength: 120 },
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: { type: 'string', minLength: 2, maxLength: 120 } },
  }),
  IdempotencyKeyCreate: obj({ operation: { type: 'string', minLength: 2, maxLength: 80 } }),
  WebhookCreate: obj({
    url: { type: 'string', format: 'uri' },
    events: { type: 'array', minItems: 1, items: { type: 'string', enum: [...EVENT_NAMES] } },
  }),
};
