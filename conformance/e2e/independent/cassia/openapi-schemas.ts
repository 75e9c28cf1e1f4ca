// The schemas of cassia's OpenAPI document: request bodies and each answer's `data`, with the fields the
// interface requires marked required (the reference is generated from this description).
import { EVENT_NAMES, type Rec } from './state.ts';

export const obj = (properties: Rec, required: string[] = Object.keys(properties)): Rec => ({
  type: 'object',
  properties,
  required,
});
export const s = (extra: Rec = {}) => ({ type: 'string', ...extra });
const int = { type: 'integer' };
const bool = { type: 'boolean' };
const arr = (items: Rec) => ({ type: 'array', items });
const nullable = (t: string) => ({ type: [t, 'null'] });
const ENV = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };
const STR = s({ minLength: 2, maxLength: 120 });

export const BODIES: Record<string, Rec> = {
  'POST /capabilities': obj({ connectorId: STR, capability: STR, environment: ENV }, ['connectorId', 'capability']),
  'POST /connections': obj({
    connectorId: STR,
    environment: ENV,
    scopeLabel: STR,
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: STR },
  }),
  'POST /idempotency-keys': obj({ operation: s({ minLength: 2, maxLength: 80 }) }),
  'POST /webhooks': obj({
    url: s({ format: 'uri' }),
    events: { type: 'array', minItems: 1, items: { type: 'string', enum: EVENT_NAMES } },
  }),
};

const PROVIDER = obj({ id: s(), name: s(), category: s(), summary: s() });
const CONNECTOR = obj({ id: s(), providerId: s(), name: s(), category: s(), capabilities: arr(s()) });
const CAPABILITY = obj({ id: s(), label: s(), critical: bool, idempotencyRequired: bool });
const CONNECTION = obj({
  id: s(),
  connectorId: s(),
  environment: ENV,
  scopeLabel: s(),
  state: s({ examples: ['provisioning', 'active'] }),
  capabilities: arr(obj({ capability: s(), critical: bool, idempotencyRequired: bool })),
  nextStep: s(),
  createdAt: s({ format: 'date-time' }),
});
const ROUTE = obj({ method: s(), path: s(), purpose: s(), auth: bool });
const WEBHOOK = obj({ id: s(), url: s(), events: arr(s()), active: bool, createdAt: s({ format: 'date-time' }) });
const DELIVERY = obj(
  {
    id: s(),
    webhookId: s(),
    eventId: s(),
    event: s(),
    status: s({ enum: ['pending', 'retrying', 'delivered', 'failed'] }),
    attempts: int,
    responseStatus: nullable('integer'),
    createdAt: s({ format: 'date-time' }),
    lastAttemptAt: nullable('string'),
    redeliveryOf: s(),
  },
  ['id', 'webhookId', 'eventId', 'event', 'status', 'attempts'],
);
const PAGE = { total: int, offset: int, limit: int, next: nullable('string') };

/** The `data` of each answer, keyed by "METHOD relative-path". */
export const DATA: Record<string, Rec> = {
  'GET /': obj(
    {
      service: s(),
      surface: s(),
      version: s(),
      authentication: { type: 'object' },
      idempotency: { type: 'object' },
      routes: arr(ROUTE),
    },
    ['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'],
  ),
  'GET /info': obj({ clientId: s(), tenant: s(), environment: ENV, version: s() }),
  'GET /providers': obj({ count: int, providers: arr(PROVIDER) }),
  'GET /connectors': obj({ count: int, connectors: arr(CONNECTOR) }),
  'GET /capabilities': obj({ count: int, capabilities: arr(CAPABILITY) }),
  'POST /capabilities': obj({
    decision: obj({
      connectorId: s(),
      capability: s(),
      allowed: bool,
      critical: bool,
      idempotencyRequired: bool,
      reason: s(),
    }),
    environment: ENV,
  }),
  'GET /connections': obj({ tenant: s(), count: int, connections: arr(CONNECTION), ...PAGE }, [
    'tenant',
    'count',
    'connections',
  ]),
  'POST /connections': CONNECTION,
  'POST /idempotency-keys': obj({ idempotencyKey: s(), operation: s(), expiresAt: s({ format: 'date-time' }) }),
  'GET /webhooks': obj({ count: int, webhooks: arr(WEBHOOK) }),
  'POST /webhooks': obj({ ...WEBHOOK.properties, signingKey: s() }),
  'DELETE /webhooks/{webhookId}': obj({ id: s(), deleted: bool }),
  'GET /webhooks/{webhookId}/delivery-attempts': obj({ webhookId: s(), count: int, deliveries: arr(DELIVERY) }),
  'POST /webhooks/{webhookId}/delivery-attempts/{attemptId}/retry': DELIVERY,
  'GET /audit-log': obj(
    { tenant: s(), count: int, entries: arr({ type: 'object' }), proof: { type: 'object' }, ...PAGE },
    ['tenant', 'count', 'entries', 'proof'],
  ),
};

export const QUERY: Record<string, [string, Rec][]> = {
  'GET /providers': [['category', s()]],
  'GET /connectors': [
    ['capability', s()],
    ['providerId', s()],
    ['category', s()],
  ],
  'GET /connections': [
    ['limit', { type: 'integer', minimum: 1 }],
    ['offset', { type: 'integer', minimum: 0 }],
  ],
  'GET /audit-log': [
    ['limit', { type: 'integer', minimum: 1 }],
    ['offset', { type: 'integer', minimum: 0 }],
  ],
  'GET /stream': [['cursor', { type: 'integer', minimum: 0 }]],
};
