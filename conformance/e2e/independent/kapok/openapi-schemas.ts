// The schemas of kapok's OpenAPI document: components, each operation's data and request body.
import { EVENTS } from './webhooks.ts';

export const str = { type: 'string' };
export const dt = { type: 'string', format: 'date-time' };
export const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
export const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
export const text = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
export const ENV = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };

export const schemas = {
  Meta: obj({ requestId: str, version: str, at: dt, idempotencyKey: str, replayed: { type: 'boolean' } }, [
    'requestId',
    'version',
    'at',
  ]),
  Error: obj({
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
  Provider: obj({ id: str, name: str, category: str, summary: str }),
  Connector: obj({ id: str, providerId: str, name: str, category: str, capabilities: { type: 'array', items: str } }),
  Capability: obj({ id: str, label: str, critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
  CapabilityDecision: obj({
    connectorId: str,
    capability: str,
    allowed: { type: 'boolean' },
    critical: { type: 'boolean' },
    idempotencyRequired: { type: 'boolean' },
    reason: str,
  }),
  Connection: obj({
    id: { type: 'string', format: 'uuid' },
    connectorId: str,
    environment: ENV,
    scopeLabel: str,
    state: { type: 'string', enum: ['new', 'live'] },
    capabilities: {
      type: 'array',
      items: obj({ capability: str, critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
    },
    nextStep: str,
    createdAt: dt,
  }),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: { type: 'boolean' } }),
  Delivery: obj({
    id: str,
    webhookId: str,
    eventId: str,
    event: str,
    attempts: { type: 'integer' },
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    responseStatus: { type: ['integer', 'null'] },
    createdAt: dt,
    lastAttemptAt: { type: ['string', 'null'], format: 'date-time' },
    retryOf: { type: ['string', 'null'] },
  }),
  AuditEntry: obj({ seq: { type: 'integer' }, at: dt, action: str, subject: str, digest: str, prev: str }),
};

export const list = (name: string, item: string) =>
  obj({ count: { type: 'integer' }, [name]: { type: 'array', items: ref(item) } });
export const DATA: Record<string, unknown> = {
  'GET /api/public/v1': obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  'GET /api/public/v1/info': obj({ tenant: str, clientId: str, environment: ENV, tokenExpiresAt: dt }),
  'GET /api/public/v1/providers': list('providers', 'Provider'),
  'GET /api/public/v1/connectors': list('connectors', 'Connector'),
  'GET /api/public/v1/capabilities': list('capabilities', 'Capability'),
  'POST /api/public/v1/capabilities': obj({ decision: ref('CapabilityDecision'), environment: ENV }),
  'GET /api/public/v1/connections': obj({
    tenant: str,
    count: { type: 'integer' },
    connections: { type: 'array', items: ref('Connection') },
  }),
  'POST /api/public/v1/connections': ref('Connection'),
  'POST /api/public/v1/idempotency-keys': obj({ idempotencyKey: str, operation: str, expiresAt: dt }),
  'POST /api/public/v1/webhooks': obj(
    { id: str, url: str, events: { type: 'array', items: str }, createdAt: dt, signingKey: str, signatureHeader: str },
    ['id', 'url', 'events', 'createdAt'],
  ),
  'GET /api/public/v1/webhooks/{id}/deliveries': obj({
    webhookId: str,
    count: { type: 'integer' },
    deliveries: { type: 'array', items: ref('Delivery') },
    next_cursor: { type: ['string', 'null'] },
  }),
  'POST /api/public/v1/deliveries/{id}/retry': ref('Delivery'),
  'GET /api/public/v1/audit-log': obj({
    tenant: str,
    order: str,
    count: { type: 'integer' },
    entries: { type: 'array', items: ref('AuditEntry') },
    next_cursor: { type: ['string', 'null'] },
    proof: obj({ algorithm: { const: 'sha256-chain' }, head: str, signature: str, publicKeyJwk: { type: 'object' } }),
  }),
};

export const BODY: Record<string, unknown> = {
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
  'POST /api/public/v1/webhooks': obj({
    url: { type: 'string', format: 'uri' },
    events: { type: 'array', minItems: 1, items: { type: 'string', enum: EVENTS } },
  }),
};
