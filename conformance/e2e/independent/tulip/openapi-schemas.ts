// JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of the envelopes, records and bodies tulip serves.
import type { Rec } from './http.ts';
import { ENVIRONMENTS } from './state.ts';
import { EVENTS } from './webhooks.ts';

const s = { type: 'string' };
export const ERROR_CODES = [
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
const str = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (required: string[], properties: Rec): Rec => ({ type: 'object', required, properties });
const list = (field: string, item: Rec) =>
  obj(['count', field], { count: { type: 'integer' }, [field]: { type: 'array', items: item } });

export const envelopeSchemas: Rec = {
  Meta: obj(['requestId', 'version', 'at'], {
    requestId: s,
    version: s,
    at: { type: 'string', format: 'date-time' },
    idempotencyKey: s,
    replayed: { type: 'boolean' },
  }),
  Failure: obj(['ok', 'error', 'meta'], {
    ok: { const: false },
    error: obj(['code', 'message'], { code: { type: 'string', enum: ERROR_CODES }, message: s, detail: s, hint: s }),
    meta: ref('Meta'),
  }),
  Environment: { type: 'string', enum: ENVIRONMENTS },
  Provider: obj(['id', 'name', 'category', 'summary'], { id: s, name: s, category: s, summary: s, region: s }),
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
    critical: { type: 'boolean' },
    idempotencyRequired: { type: 'boolean' },
  }),
  Connection: obj(
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
    {
      id: { type: 'string', format: 'uuid' },
      connectorId: s,
      environment: ref('Environment'),
      scopeLabel: s,
      state: { type: 'string', description: 'pending until the provider confirms, then active' },
      capabilities: {
        type: 'array',
        items: obj(['capability', 'critical', 'idempotencyRequired'], {
          capability: s,
          critical: { type: 'boolean' },
          idempotencyRequired: { type: 'boolean' },
        }),
      },
      nextStep: s,
      createdAt: { type: 'string', format: 'date-time' },
    },
  ),
  CapabilityDecision: obj(['connectorId', 'capability', 'allowed', 'critical', 'idempotencyRequired', 'reason'], {
    connectorId: s,
    capability: s,
    allowed: { type: 'boolean' },
    critical: { type: 'boolean' },
    idempotencyRequired: { type: 'boolean' },
    reason: s,
  }),
  RouteInfo: obj(['method', 'path', 'purpose', 'auth'], { method: s, path: s, purpose: s, auth: { type: 'boolean' } }),
  Webhook: obj(['id', 'url', 'events', 'status', 'createdAt'], {
    id: { type: 'string', format: 'uuid' },
    url: s,
    events: { type: 'array', items: { type: 'string', enum: EVENTS } },
    status: s,
    createdAt: { type: 'string', format: 'date-time' },
    signingKey: { type: 'string', description: 'shown once, in the creation answer only' },
  }),
  Delivery: obj(['id', 'webhookId', 'eventId', 'event', 'status', 'attempts', 'createdAt'], {
    id: { type: 'string', format: 'uuid' },
    webhookId: s,
    eventId: s,
    event: s,
    status: { type: 'string', enum: ['pending', 'delivered', 'retrying', 'failed'] },
    attempts: { type: 'array', items: { type: 'object' } },
    createdAt: { type: 'string', format: 'date-time' },
  }),
};

export const bodySchemas: Record<string, Rec> = {
  'POST /capabilities': obj(['connectorId', 'capability'], {
    connectorId: str(2, 120),
    capability: str(2, 120),
    environment: ref('Environment'),
  }),
  'POST /connections': obj(['connectorId', 'environment', 'scopeLabel', 'capabilities'], {
    connectorId: str(2, 120),
    environment: ref('Environment'),
    scopeLabel: str(2, 120),
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
  }),
  'POST /idempotency-keys': obj(['operation'], { operation: str(2, 80) }),
  'POST /webhooks': obj(['url', 'events'], {
    url: { type: 'string', format: 'uri' },
    events: { type: 'array', minItems: 1, items: { type: 'string', enum: EVENTS } },
  }),
};

export const dataSchemas: Record<string, Rec> = {
  'GET /': obj(['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'], {
    service: s,
    surface: s,
    version: s,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  'GET /providers': list('providers', ref('Provider')),
  'GET /connectors': list('connectors', ref('Connector')),
  'GET /capabilities': list('capabilities', ref('Capability')),
  'POST /capabilities': obj(['decision', 'environment'], {
    decision: ref('CapabilityDecision'),
    environment: ref('Environment'),
  }),
  'GET /connections': {
    ...list('connections', ref('Connection')),
    properties: { tenant: s, count: { type: 'integer' }, connections: { type: 'array', items: ref('Connection') } },
  },
  'POST /connections': ref('Connection'),
  'GET /connections/{connectionId}': ref('Connection'),
  'POST /idempotency-keys': obj(['idempotencyKey', 'operation', 'expiresAt'], {
    idempotencyKey: s,
    operation: s,
    expiresAt: { type: 'string', format: 'date-time' },
  }),
  'POST /webhooks': ref('Webhook'),
  'GET /webhooks/{webhookId}/delivery-attempts': obj(['webhookId', 'count', 'deliveries'], {
    webhookId: s,
    count: { type: 'integer' },
    deliveries: { type: 'array', items: ref('Delivery') },
  }),
  'POST /webhooks/{webhookId}/delivery-attempts/{deliveryId}/retry': ref('Delivery'),
  'GET /audit-log': obj(['tenant', 'count', 'entries', 'proof'], {
    tenant: s,
    count: { type: 'integer' },
    entries: { type: 'array', items: { type: 'object' } },
    proof: { type: 'object' },
  }),
};

/** The audit page with an opaque cursor (the `auditCursorPages` option). */
export const cursorAuditSchema: Rec = obj(['items', 'page', 'proof'], {
  items: { type: 'array', items: { type: 'object' } },
  page: obj(['size'], { size: { type: 'integer' }, cursor: s }),
  proof: { type: 'object' },
});
