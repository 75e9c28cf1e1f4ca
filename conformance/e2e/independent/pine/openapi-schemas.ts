// Component schemas of pine's OpenAPI 3.1 document (what OpenApiSpex modules would declare), written by
// hand from interface.md plus pine's own additions (webhooks, deliveries, audit entries, info).
import { ERROR_STATUS } from './http-kit.ts';
import { ENVIRONMENTS } from './validate.ts';
import { EVENT_NAMES } from './webhooks.ts';

const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer' };
const dateTime = { type: 'string', format: 'date-time' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const text = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const nextLink = { type: ['string', 'null'], description: 'next page; null when the list is complete' };

function obj(properties: Record<string, unknown>, required: string[] = Object.keys(properties)) {
  return { type: 'object', properties, required };
}

/** A list answer: count, the entries under their name, next. */
export function listOf(name: string, item: unknown, extra: Record<string, unknown> = {}) {
  return obj({ ...extra, count: int, [name]: { type: 'array', items: item }, next: nextLink });
}

export const SCHEMAS: Record<string, unknown> = {
  Meta: obj({ requestId: str, version: str, at: dateTime, idempotencyKey: str, replayed: bool }, [
    'requestId',
    'version',
    'at',
  ]),
  Failure: obj({
    ok: { type: 'boolean', const: false },
    error: obj({ code: { type: 'string', enum: Object.keys(ERROR_STATUS) }, message: str, detail: str, hint: str }, [
      'code',
      'message',
    ]),
    meta: ref('Meta'),
  }),
  Environment: { type: 'string', enum: ENVIRONMENTS },
  Provider: obj({ id: str, name: str, category: str, summary: str }),
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
  Connection: obj(
    {
      id: { type: 'string', format: 'uuid' },
      connectorId: str,
      environment: ref('Environment'),
      scopeLabel: str,
      state: { type: 'string', enum: ['pending', 'active', 'paused', 'revoked'] },
      capabilities: {
        type: 'array',
        items: obj({ capability: str, critical: bool, idempotencyRequired: bool }),
      },
      nextStep: { type: 'string', enum: ['await_activation', 'none', 'resume_connection', 'create_new_connection'] },
      createdAt: dateTime,
      updatedAt: dateTime,
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  IdempotencyKeyResult: obj({ idempotencyKey: str, operation: str, expiresAt: dateTime }),
  Webhook: obj(
    {
      id: { type: 'string', format: 'uuid' },
      url: str,
      events: { type: 'array', items: { type: 'string', enum: EVENT_NAMES } },
      status: str,
      createdAt: dateTime,
      signingKey: { type: 'string', description: 'only in the registration answer; store it at once' },
    },
    ['id', 'url', 'events', 'status', 'createdAt'],
  ),
  Attempt: obj({
    number: int,
    trigger: { type: 'string', enum: ['initial', 'retry', 'replay'] },
    at: dateTime,
    responseStatus: { type: ['integer', 'null'] },
    error: { type: ['string', 'null'] },
  }),
  Delivery: obj(
    {
      id: { type: 'string', format: 'uuid' },
      webhookId: str,
      eventId: str,
      event: str,
      status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
      attempts: { type: 'array', items: ref('Attempt') },
      attemptCount: int,
      createdAt: dateTime,
      replayAttempt: int,
      replayOf: { type: 'string', format: 'uuid' },
    },
    ['id', 'webhookId', 'eventId', 'event', 'status', 'attempts', 'createdAt'],
  ),
  AuditEntry: obj({
    id: int,
    at: dateTime,
    tenant: str,
    actor: str,
    action: str,
    target: obj({ type: str, id: str }),
    prev: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    hash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  }),
  AuditProof: obj({
    algorithm: { type: 'string', const: 'sha256' },
    canonical: { type: 'string', const: 'json-sorted-keys' },
    format: str,
    genesis: str,
    headId: { type: ['integer', 'null'] },
    headHash: str,
  }),
};

/** Request bodies by operation. */
export const BODIES: Record<string, unknown> = {
  'POST /api/public/v1/capabilities': obj(
    { connectorId: text(2, 120), capability: text(2, 120), environment: { ...ref('Environment'), default: 'sandbox' } },
    ['connectorId', 'capability'],
  ),
  'POST /api/public/v1/connections': obj({
    connectorId: text(2, 120),
    environment: ref('Environment'),
    scopeLabel: text(2, 120),
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: text(2, 120) },
  }),
  'POST /api/public/v1/idempotency-keys': obj({ operation: text(2, 80) }),
  'POST /api/public/v1/webhooks': obj({
    url: { type: 'string', format: 'uri', maxLength: 2048 },
    events: { type: 'array', minItems: 1, items: { type: 'string', enum: EVENT_NAMES } },
  }),
};

/** The data of each operation's success. */
export const DATA: Record<string, unknown> = {
  'GET /api/public/v1': obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  'GET /api/public/v1/info': { type: 'object' },
  'GET /api/public/v1/providers': listOf('providers', ref('Provider')),
  'GET /api/public/v1/connectors': listOf('connectors', ref('Connector')),
  'GET /api/public/v1/capabilities': listOf('capabilities', ref('Capability')),
  'POST /api/public/v1/capabilities': obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  'GET /api/public/v1/connections': listOf('connections', ref('Connection'), { tenant: str }),
  'POST /api/public/v1/connections': ref('Connection'),
  'GET /api/public/v1/connections/{id}': ref('Connection'),
  'POST /api/public/v1/idempotency-keys': ref('IdempotencyKeyResult'),
  'POST /api/public/v1/webhooks': ref('Webhook'),
  'GET /api/public/v1/webhooks': listOf('webhooks', ref('Webhook')),
  'GET /api/public/v1/webhooks/{id}': ref('Webhook'),
  'DELETE /api/public/v1/webhooks/{id}': obj({ id: str, deleted: bool }),
  'GET /api/public/v1/webhooks/{id}/deliveries': listOf('deliveries', ref('Delivery'), { webhookId: str }),
  'GET /api/public/v1/webhooks/{id}/deliveries/{deliveryId}': ref('Delivery'),
  'POST /api/public/v1/webhooks/{id}/deliveries/{deliveryId}/replay': ref('Delivery'),
  'GET /api/public/v1/audit-log': listOf('entries', ref('AuditEntry'), { proof: ref('AuditProof') }),
};
