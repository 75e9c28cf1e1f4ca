// Schema objects of cypress's OpenAPI document (JSON Schema 2020-12, OpenAPI 3.1's dialect), written by
// hand to match what the jbuilder views render.
import { ENVIRONMENTS, WEBHOOK_EVENTS } from './validate.ts';

const CODES = [
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
const str = { type: 'string' };
const int = { type: 'integer' };
const bool = { type: 'boolean' };
const time = { type: 'string', format: 'date-time' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const arr = (items: object) => ({ type: 'array', items });
const obj = (properties: Record<string, object>, required = Object.keys(properties)) => ({
  type: 'object',
  required,
  properties,
});

export const SCHEMAS: Record<string, object> = {
  Environment: { type: 'string', enum: ENVIRONMENTS },
  Meta: obj({ requestId: str, version: str, at: time, idempotencyKey: str, replayed: bool }, [
    'requestId',
    'version',
    'at',
  ]),
  Failure: obj({
    ok: { type: 'boolean', const: false },
    error: obj({ code: { type: 'string', enum: CODES }, message: str, detail: str, hint: str }, ['code', 'message']),
    meta: ref('Meta'),
  }),
  Provider: {
    ...obj({ id: str, name: str, category: str, summary: str, website: str }, ['id', 'name', 'category', 'summary']),
  },
  Connector: obj({ id: str, providerId: str, name: str, category: str, capabilities: arr(str) }),
  Capability: obj({ id: str, label: str, critical: bool, idempotencyRequired: bool, description: str }, [
    'id',
    'label',
    'critical',
    'idempotencyRequired',
  ]),
  CapabilityDecision: obj({
    connectorId: str,
    capability: str,
    allowed: bool,
    critical: bool,
    idempotencyRequired: bool,
    reason: str,
  }),
  Connection: obj(
    {
      id: str,
      connectorId: str,
      environment: ref('Environment'),
      scopeLabel: str,
      state: { type: 'string', examples: ['pending', 'active'] },
      capabilities: arr(obj({ capability: str, critical: bool, idempotencyRequired: bool })),
      nextStep: str,
      createdAt: time,
      updatedAt: time,
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  IdempotencyKeyResult: obj({ idempotencyKey: str, operation: str, expiresAt: time }),
  Webhook: obj(
    { id: str, url: str, events: arr(str), status: str, signatureHeader: str, createdAt: time, signingKey: str },
    ['id', 'url', 'events', 'status', 'createdAt'],
  ),
  Delivery: obj(
    {
      id: str,
      webhookId: str,
      eventId: str,
      event: str,
      status: { type: 'string', enum: ['enqueued', 'retrying', 'succeeded', 'dead'] },
      retryCount: int,
      attemptCount: int,
      lastResponseStatus: { type: ['integer', 'null'] },
      lastError: { type: ['string', 'null'] },
      attempts: arr(
        obj({
          attemptedAt: time,
          responseStatus: { type: ['integer', 'null'] },
          error: { type: ['string', 'null'] },
          durationMs: int,
        }),
      ),
      nextRetryAt: { type: ['string', 'null'], format: 'date-time' },
      retryOf: { type: ['string', 'null'] },
      createdAt: time,
    },
    ['id', 'webhookId', 'eventId', 'event', 'status', 'attempts', 'createdAt'],
  ),
  AuditVersion: obj({
    id: int,
    position: int,
    event: { type: 'string', enum: ['create', 'update', 'destroy'] },
    itemType: str,
    itemId: str,
    whodunnit: str,
    requestId: str,
    objectChanges: { type: 'object', additionalProperties: { type: 'array', minItems: 2, maxItems: 2 } },
    createdAt: time,
    previousDigest: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    digest: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  }),
};

const len = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });

export const BODIES: Record<string, object> = {
  CapabilityCheck: {
    type: 'object',
    required: ['connectorId', 'capability'],
    properties: {
      connectorId: len(2, 120),
      capability: len(2, 120),
      environment: { type: 'string', enum: ENVIRONMENTS, default: 'sandbox' },
    },
  },
  ConnectionCreate: {
    type: 'object',
    additionalProperties: false,
    required: ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
    properties: {
      connectorId: len(2, 120),
      environment: ref('Environment'),
      scopeLabel: len(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: len(2, 120) },
    },
  },
  IdempotencyKeyRequest: { type: 'object', required: ['operation'], properties: { operation: len(2, 80) } },
  WebhookCreate: {
    type: 'object',
    required: ['url', 'events'],
    properties: {
      url: { type: 'string', format: 'uri', minLength: 8, maxLength: 2048 },
      events: { type: 'array', minItems: 1, items: { type: 'string', enum: WEBHOOK_EVENTS } },
    },
  },
};

/** data of each operation's 200 answer, by "METHOD path". */
export const DATA: Record<string, object> = {
  'GET ': obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: arr(ref('RouteInfo')),
  }),
  'GET /info': obj({
    tenant: str,
    clientId: str,
    environment: str,
    tokenExpiresAt: time,
    rateLimit: { type: 'object' },
  }),
  'GET /providers': obj({ count: int, providers: arr(ref('Provider')) }),
  'GET /connectors': obj({ count: int, connectors: arr(ref('Connector')) }),
  'GET /capabilities': obj({ count: int, capabilities: arr(ref('Capability')) }),
  'POST /capabilities': obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  'GET /connections': obj({ tenant: str, count: int, connections: arr(ref('Connection')) }),
  'POST /connections': ref('Connection'),
  'POST /idempotency-keys': ref('IdempotencyKeyResult'),
  'GET /webhooks': obj({ count: int, webhooks: arr(ref('Webhook')) }),
  'POST /webhooks': ref('Webhook'),
  'DELETE /webhooks/:webhookId': obj({ id: str, deleted: bool }),
  'GET /webhook-deliveries': obj({
    webhookId: { type: ['string', 'null'] },
    count: int,
    deliveries: arr(ref('Delivery')),
  }),
  'POST /webhook-deliveries/:deliveryId/retry': ref('Delivery'),
  'GET /audit-log': obj({
    tenant: str,
    order: str,
    versions: arr(ref('AuditVersion')),
    pagination: { type: 'object' },
    proof: { type: 'object' },
  }),
};
