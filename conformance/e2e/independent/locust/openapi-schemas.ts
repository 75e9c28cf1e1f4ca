// The component schemas of the OpenAPI document (what apispec would emit from the marshmallow schemas).
import { WEBHOOK_EVENTS } from './state.ts';

const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer' };
const time = { type: 'string', format: 'date-time' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const len = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const env = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };

export const SCHEMAS = {
  Meta: obj({ requestId: str, version: str, at: time, idempotencyKey: str, replayed: bool }, [
    'requestId',
    'version',
    'at',
  ]),
  Error: obj({
    ok: { type: 'boolean', const: false },
    error: obj({ code: str, message: str, detail: str, hint: str }, ['code', 'message']),
    meta: ref('Meta'),
  }),
  Provider: obj({ id: str, name: str, category: str, summary: str, country: str }, [
    'id',
    'name',
    'category',
    'summary',
  ]),
  Connector: obj({ id: str, providerId: str, name: str, category: str, capabilities: { type: 'array', items: str } }),
  Capability: obj({ id: str, label: str, critical: bool, idempotencyRequired: bool }),
  CapabilityDecision: obj({
    connectorId: str,
    capability: str,
    allowed: bool,
    critical: bool,
    idempotencyRequired: bool,
    reason: str,
  }),
  Connection: obj({
    id: str,
    connectorId: str,
    environment: env,
    scopeLabel: str,
    state: { type: 'string', enum: ['provisioning', 'active'] },
    capabilities: {
      type: 'array',
      items: obj({ capability: str, critical: bool, idempotencyRequired: bool }),
    },
    nextStep: str,
    createdAt: time,
  }),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  IdempotencyKeyResult: obj({ idempotencyKey: str, operation: str, expiresAt: time }),
  CapabilityCheck: obj(
    { connectorId: len(2, 120), capability: len(2, 120), environment: { ...env, default: 'sandbox' } },
    ['connectorId', 'capability'],
  ),
  ConnectionCreate: {
    ...obj({
      connectorId: len(2, 120),
      environment: env,
      scopeLabel: len(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: len(2, 120) },
    }),
    additionalProperties: false,
  },
  IdempotencyKeyCreate: { ...obj({ operation: len(2, 80) }), additionalProperties: false },
  WebhookCreate: {
    ...obj({
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', minItems: 1, items: { type: 'string', enum: WEBHOOK_EVENTS } },
    }),
    additionalProperties: false,
  },
  Webhook: obj(
    { id: str, url: str, events: { type: 'array', items: str }, active: bool, created_at: time, signing_secret: str },
    ['id', 'url', 'events'],
  ),
  Delivery: obj({
    id: str,
    webhook_id: str,
    event_id: str,
    event: str,
    status: { type: 'string', enum: ['queued', 'retrying', 'delivered', 'failed'] },
    attempts: int,
    response_status: { type: ['integer', 'null'] },
    redelivery_of: { type: ['string', 'null'] },
    created_at: time,
    delivered_at: { type: ['string', 'null'], format: 'date-time' },
  }),
  AuditEntry: obj({
    id: int,
    seq: int,
    action: str,
    resource_type: str,
    resource_id: str,
    actor: str,
    created_at: time,
    prev_hash: { type: ['string', 'null'] },
    hash: str,
  }),
};

/** The data schema of each route (method and relative path). */
export const DATA: Record<string, unknown> = {
  'GET ': obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  'GET /info': obj({ clientId: str, tenant: str, environment: str, service: str }),
  'GET /providers': obj({ count: int, providers: { type: 'array', items: ref('Provider') } }),
  'GET /connectors': obj({ count: int, connectors: { type: 'array', items: ref('Connector') } }),
  'GET /capabilities': obj({ count: int, capabilities: { type: 'array', items: ref('Capability') } }),
  'POST /capabilities': obj({ decision: ref('CapabilityDecision'), environment: env }),
  'GET /connections': obj({ tenant: str, count: int, connections: { type: 'array', items: ref('Connection') } }),
  'POST /connections': ref('Connection'),
  'GET /connections/{connectionId}': ref('Connection'),
  'POST /idempotency-keys': ref('IdempotencyKeyResult'),
  'GET /webhooks': obj({ count: int, webhooks: { type: 'array', items: ref('Webhook') } }),
  'POST /webhooks': ref('Webhook'),
  'GET /webhooks/{webhookId}': ref('Webhook'),
  'DELETE /webhooks/{webhookId}': obj({ id: str, deleted: bool }),
  'GET /webhook-deliveries': obj({
    webhook_id: str,
    count: int,
    deliveries: { type: 'array', items: ref('Delivery') },
  }),
  'POST /webhook-deliveries/{deliveryId}/retry': ref('Delivery'),
  'GET /audit-log': obj({
    entries: { type: 'array', items: ref('AuditEntry') },
    count: int,
    next_page: { type: ['string', 'null'] },
    proof: { type: 'object' },
  }),
};

export const BODIES: Record<string, string> = {
  'POST /capabilities': 'CapabilityCheck',
  'POST /connections': 'ConnectionCreate',
  'POST /idempotency-keys': 'IdempotencyKeyCreate',
  'POST /webhooks': 'WebhookCreate',
};
