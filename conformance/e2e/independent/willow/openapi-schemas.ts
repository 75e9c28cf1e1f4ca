// JSON Schemas (OpenAPI 3.1) of what willow serves: the contract's resources plus willow's own records.
import { ENVIRONMENTS } from './catalog-kv.ts';
import { EVENT_NAMES } from './webhook-queue.ts';

const s = { type: 'string' };
const b = { type: 'boolean' };
const i = { type: 'integer', minimum: 0 };
const dt = { type: 'string', format: 'date-time' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const arr = (items: unknown) => ({ type: 'array', items });
const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const len = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });

export const SCHEMAS: Record<string, unknown> = {
  Meta: {
    ...obj({ requestId: s, version: s, at: dt, idempotencyKey: s, replayed: b }, ['requestId', 'version', 'at']),
  },
  Failure: obj({
    ok: { type: 'boolean', const: false },
    error: obj({ code: s, message: s, detail: s, hint: s }, ['code', 'message']),
    meta: ref('Meta'),
  }),
  Environment: { type: 'string', enum: ENVIRONMENTS },
  Provider: { ...obj({ id: s, name: s, category: s, summary: s, region: s }, ['id', 'name', 'category', 'summary']) },
  Connector: {
    ...obj(
      { id: s, providerId: s, name: s, category: s, capabilities: arr(s), environments: arr(ref('Environment')) },
      ['id', 'providerId', 'name', 'category', 'capabilities'],
    ),
  },
  Capability: obj({ id: s, label: s, critical: b, idempotencyRequired: b, description: s }, [
    'id',
    'label',
    'critical',
    'idempotencyRequired',
  ]),
  CapabilityDecision: obj({
    connectorId: s,
    capability: s,
    allowed: b,
    critical: b,
    idempotencyRequired: b,
    reason: s,
  }),
  Connection: obj(
    {
      id: { type: 'string', format: 'uuid' },
      connectorId: s,
      environment: ref('Environment'),
      scopeLabel: s,
      state: { type: 'string', enum: ['pending', 'ready', 'paused'] },
      capabilities: arr(obj({ capability: s, critical: b, idempotencyRequired: b })),
      nextStep: { type: 'string', enum: ['await_provider_activation', 'start_calling', 'contact_support'] },
      createdAt: dt,
      updatedAt: dt,
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
  RouteInfo: obj({ method: s, path: s, purpose: s, auth: b }),
  IdempotencyKeyResult: obj({ idempotencyKey: s, operation: s, expiresAt: dt }),
  Webhook: obj(
    {
      id: s,
      url: { type: 'string', format: 'uri' },
      events: arr({ type: 'string', enum: EVENT_NAMES }),
      status: s,
      createdAt: dt,
      signingKey: { type: 'string', description: 'shown in the first answer only; a replay withholds it' },
      signatureHeader: s,
    },
    ['id', 'url', 'events', 'status', 'createdAt'],
  ),
  Delivery: obj(
    {
      id: s,
      webhookId: s,
      eventId: s,
      event: s,
      state: { type: 'string', enum: ['queued', 'retrying', 'delivered', 'failed'] },
      createdAt: dt,
      redeliveryOf: { type: ['string', 'null'] },
      attempts: arr(obj({ at: dt, responseStatus: { type: ['integer', 'null'] }, outcome: s, durationMs: i })),
      attemptCount: i,
      nextRetryAt: { type: ['string', 'null'] },
    },
    ['id', 'webhookId', 'eventId', 'event', 'state', 'createdAt', 'attempts'],
  ),
  AuditEntry: obj({
    seq: i,
    id: s,
    at: dt,
    action: s,
    actor: obj({ type: s, id: s }),
    resource: obj({ type: s, id: s }),
    requestId: { type: ['string', 'null'] },
    idempotencyKey: { type: ['string', 'null'] },
    changes: { type: 'object' },
    prevHash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    hash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  }),
};

/** The data schema of each operation's 200 answer, by "METHOD path". */
export const DATA: Record<string, unknown> = {
  'GET ': obj({
    service: s,
    surface: s,
    version: s,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: arr(ref('RouteInfo')),
  }),
  'GET /providers': obj({ count: i, providers: arr(ref('Provider')) }),
  'GET /connectors': obj({ count: i, connectors: arr(ref('Connector')) }),
  'GET /capabilities': obj({ count: i, capabilities: arr(ref('Capability')) }),
  'POST /capabilities': obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  'GET /connections': obj({ tenant: s, count: i, connections: arr(ref('Connection')) }),
  'POST /connections': ref('Connection'),
  'POST /idempotency-keys': ref('IdempotencyKeyResult'),
  'POST /webhooks': ref('Webhook'),
  'DELETE /webhooks/:webhookId': obj({ id: s, deleted: b }),
  'GET /webhooks/:webhookId/delivery-log': obj({ webhookId: s, count: i, deliveries: arr(ref('Delivery')) }),
  'POST /webhooks/:webhookId/delivery-log/:deliveryId/retry': ref('Delivery'),
  'GET /webhook-deliveries': obj({ webhookId: s, count: i, deliveries: arr(ref('Delivery')) }),
  'POST /webhook-deliveries/:deliveryId/retry': ref('Delivery'),
  'GET /audit-log': obj(
    {
      tenant: s,
      order: s,
      count: i,
      entries: arr(ref('AuditEntry')),
      truncated: b,
      nextCursor: { type: ['string', 'null'] },
      proof: { type: 'object' },
    },
    ['tenant', 'count', 'entries', 'proof'],
  ),
  'GET /info': obj(
    { tenant: s, clientId: s, environment: ref('Environment'), tokenExpiresAt: { type: ['string', 'null'] } },
    ['tenant', 'clientId', 'environment'],
  ),
};

/** Request bodies, by "METHOD path". */
export const BODIES: Record<string, unknown> = {
  'POST /capabilities': obj({ connectorId: len(2, 120), capability: len(2, 120), environment: ref('Environment') }, [
    'connectorId',
    'capability',
  ]),
  'POST /connections': {
    ...obj({
      connectorId: len(2, 120),
      environment: ref('Environment'),
      scopeLabel: len(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: len(2, 120) },
    }),
    additionalProperties: false,
  },
  'POST /idempotency-keys': obj({ operation: { ...len(2, 80), examples: ['connection.create'] } }),
  'POST /webhooks': obj({
    url: { type: 'string', format: 'uri' },
    events: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', enum: EVENT_NAMES } },
  }),
};
