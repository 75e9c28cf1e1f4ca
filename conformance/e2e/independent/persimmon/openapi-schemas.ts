// Component schemas of the OpenAPI document, written the way servant-openapi3 derives them from the
// aeson types: required lists for non-Maybe fields, `additionalProperties` left open for catalog records.
import type { Rec } from './http.ts';
import { EVENT_NAMES } from './webhooks.ts';

const s = { type: 'string' };
const b = { type: 'boolean' };
const i = { type: 'integer' };
const dt = { type: 'string', format: 'date-time' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Rec, required = Object.keys(properties)): Rec => ({ type: 'object', properties, required });
const arr = (items: Rec) => ({ type: 'array', items });
const ENV = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };

export const SCHEMAS: Rec = {
  Meta: obj({ requestId: s, version: s, at: dt, idempotencyKey: s, replayed: b }, ['requestId', 'version', 'at']),
  Failure: obj({
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
        message: s,
        detail: s,
        hint: s,
      },
      ['code', 'message'],
    ),
    meta: ref('Meta'),
  }),
  Environment: ENV,
  Provider: obj({ id: s, name: s, category: s, summary: s }),
  Connector: obj({ id: s, providerId: s, name: s, category: s, capabilities: arr(s) }),
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
    state: { type: 'string', enum: ['provisioning', 'live', 'suspended'] },
    capabilities: arr(obj({ capability: s, critical: b, idempotencyRequired: b })),
    nextStep: s,
    createdAt: dt,
  }),
  RouteInfo: obj({ method: s, path: s, purpose: s, auth: b }),
  IdempotencyKeyResult: obj({ idempotencyKey: s, operation: s, expiresAt: dt }),
  Webhook: obj({ id: s, url: s, events: arr({ type: 'string', enum: EVENT_NAMES }), createdAt: dt }),
  Delivery: obj(
    {
      id: s,
      webhookId: s,
      eventId: s,
      eventType: s,
      status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
      responseStatus: i,
      attempt: i,
      redeliveryOf: s,
      requestedAt: dt,
    },
    ['id', 'webhookId', 'eventId', 'eventType', 'status', 'attempt', 'requestedAt'],
  ),
  AuditEntry: obj({ seq: i, at: dt, action: s, actor: s, target: { type: 'object' }, prevHash: s, hash: s }),
};

const str = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });

/** Request bodies by "METHOD path" (paths relative to /api/public/v1). */
export const BODIES: Rec = {
  'POST /capabilities': obj({ connectorId: str(2, 120), capability: str(2, 120), environment: ENV }, [
    'connectorId',
    'capability',
  ]),
  'POST /connections': obj({
    connectorId: str(2, 120),
    environment: ENV,
    scopeLabel: str(2, 120),
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
  }),
  'POST /idempotency-keys': obj({ operation: str(2, 80) }),
  'POST /webhooks': obj({
    url: { type: 'string', format: 'uri' },
    events: { type: 'array', minItems: 1, items: { type: 'string', enum: EVENT_NAMES } },
  }),
};

/** Data payloads by "METHOD path". */
export const DATA: Rec = {
  'GET /providers': obj({ count: i, providers: arr(ref('Provider')) }),
  'GET /connectors': obj({ count: i, connectors: arr(ref('Connector')) }),
  'GET /capabilities': obj({ count: i, capabilities: arr(ref('Capability')) }),
  'POST /capabilities': obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  'GET /connections': obj({ tenant: s, count: i, connections: arr(ref('Connection')) }),
  'POST /connections': ref('Connection'),
  'POST /idempotency-keys': ref('IdempotencyKeyResult'),
  'POST /webhooks': { allOf: [ref('Webhook'), obj({ signingKey: s })] },
  'GET /webhooks': obj({ count: i, webhooks: arr(ref('Webhook')) }),
  'GET /webhooks/{webhookId}': ref('Webhook'),
  'GET /webhooks/{webhookId}/delivery-attempts': obj({ webhookId: s, count: i, deliveries: arr(ref('Delivery')) }),
  'POST /webhooks/{webhookId}/delivery-attempts/{attemptId}/resend': ref('Delivery'),
  'GET /audit-log': obj({ tenant: s, count: i, entries: arr(ref('AuditEntry')), proof: { type: 'object' } }),
  'GET ': obj({
    service: s,
    surface: s,
    version: s,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: arr(ref('RouteInfo')),
  }),
};

/** Optional query and header parameters by "METHOD path": name, location, schema. */
export const PARAMS: Record<string, [string, string, Rec][]> = {
  'GET /providers': [['category', 'query', s]],
  'GET /connectors': [
    ['capability', 'query', s],
    ['providerId', 'query', s],
    ['category', 'query', s],
  ],
  'GET /stream': [
    ['cursor', 'query', { type: 'integer', minimum: 0 }],
    ['Last-Event-ID', 'header', s],
  ],
  'GET /audit-log': [
    ['limit', 'query', { type: 'integer', minimum: 1 }],
    ['before', 'query', { type: 'integer', minimum: 1 }],
  ],
};
