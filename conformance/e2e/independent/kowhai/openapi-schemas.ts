// The component schemas of kowhai's OpenAPI document and the `data` schema of each operation's 200 answer
// (the swagger-jsdoc `@openapi` blocks of the team's route files, gathered in one place).
import { ENVIRONMENTS } from './connections.ts';
import { PREFIX } from './types.ts';

const s = { type: 'string' };
const b = { type: 'boolean' };
const i = { type: 'integer' };
const dt = { type: 'string', format: 'date-time' };
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (required: string[], properties: Record<string, unknown>) => ({ type: 'object', required, properties });
const list = (name: string, item: string) =>
  obj(['count', name], { count: i, [name]: { type: 'array', items: ref(item) } });

export const COMPONENTS: Record<string, unknown> = {
  Environment: { type: 'string', enum: [...ENVIRONMENTS] },
  Provider: obj(['id', 'name', 'category', 'summary'], { id: s, name: s, category: s, summary: s }),
  Connector: obj(['id', 'providerId', 'name', 'category', 'capabilities'], {
    id: s,
    providerId: s,
    name: s,
    category: s,
    capabilities: { type: 'array', items: s },
  }),
  Capability: obj(['id', 'label', 'critical', 'idempotencyRequired'], {
    id: s,
    label: s,
    critical: b,
    idempotencyRequired: b,
  }),
  CapabilityDecision: obj(['connectorId', 'capability', 'allowed', 'critical', 'idempotencyRequired', 'reason'], {
    connectorId: s,
    capability: s,
    allowed: b,
    critical: b,
    idempotencyRequired: b,
    reason: s,
  }),
  Connection: obj(
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
    {
      id: s,
      connectorId: s,
      environment: ref('Environment'),
      scopeLabel: s,
      state: s,
      capabilities: {
        type: 'array',
        items: obj(['capability', 'critical', 'idempotencyRequired'], {
          capability: s,
          critical: b,
          idempotencyRequired: b,
        }),
      },
      nextStep: s,
      createdAt: dt,
    },
  ),
  RouteInfo: obj(['method', 'path', 'purpose', 'auth'], { method: s, path: s, purpose: s, auth: b }),
  IdempotencyKeyResult: obj(['idempotencyKey', 'operation', 'expiresAt'], {
    idempotencyKey: s,
    operation: s,
    expiresAt: dt,
  }),
  Webhook: obj(['id', 'url', 'events', 'createdAt'], {
    id: s,
    url: s,
    events: { type: 'array', items: s },
    active: b,
    createdAt: dt,
    signatureHeader: s,
    secret: { type: ['string', 'null'], description: 'the signing key, issued exactly once (null on a replay)' },
  }),
  Delivery: obj(['id', 'webhookId', 'eventId', 'event', 'status', 'attempts'], {
    id: s,
    webhookId: s,
    eventId: s,
    event: s,
    status: { type: 'string', enum: ['waiting', 'active', 'delayed', 'completed', 'failed'] },
    attemptsMade: i,
    attempts: { type: 'array', items: { type: 'object' } },
  }),
  AuditEntry: obj(['id', 'seq', 'action', 'resourceType', 'resourceId', 'createdAt', 'prevHash', 'hash'], {
    id: s,
    seq: i,
    action: s,
    resourceType: s,
    resourceId: s,
    actor: s,
    requestId: s,
    createdAt: dt,
    prevHash: s,
    hash: s,
  }),
};

const p = PREFIX;
export const DATA: Record<string, unknown> = {
  [`GET ${p}`]: obj(['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'], {
    service: s,
    surface: s,
    version: s,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  [`GET ${p}/providers`]: list('providers', 'Provider'),
  [`GET ${p}/connectors`]: list('connectors', 'Connector'),
  [`GET ${p}/capabilities`]: list('capabilities', 'Capability'),
  [`POST ${p}/capabilities`]: obj(['decision', 'environment'], {
    decision: ref('CapabilityDecision'),
    environment: ref('Environment'),
  }),
  [`GET ${p}/connections`]: obj(['tenant', 'count', 'connections'], {
    tenant: s,
    count: i,
    connections: { type: 'array', items: ref('Connection') },
  }),
  [`POST ${p}/connections`]: ref('Connection'),
  [`GET ${p}/connections/{connectionId}`]: ref('Connection'),
  [`POST ${p}/idempotency-keys`]: ref('IdempotencyKeyResult'),
  [`GET ${p}/webhooks`]: list('webhooks', 'Webhook'),
  [`POST ${p}/webhooks`]: ref('Webhook'),
  [`GET ${p}/webhooks/{webhookId}`]: ref('Webhook'),
  [`DELETE ${p}/webhooks/{webhookId}`]: ref('Webhook'),
  [`GET ${p}/webhooks/{webhookId}/deliveries`]: obj(['webhookId', 'count', 'deliveries'], {
    webhookId: s,
    count: i,
    deliveries: { type: 'array', items: ref('Delivery') },
  }),
  [`GET ${p}/webhooks/{webhookId}/deliveries/{deliveryId}`]: ref('Delivery'),
  [`POST ${p}/webhooks/{webhookId}/deliveries/{deliveryId}/retry`]: ref('Delivery'),
  [`GET ${p}/audit-log`]: obj(['entries', 'proof'], {
    tenant: s,
    order: s,
    count: i,
    entries: { type: 'array', items: ref('AuditEntry') },
    nextCursor: { type: ['string', 'null'] },
    proof: { type: 'object' },
  }),
};
