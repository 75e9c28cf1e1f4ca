// components/schemas of the OpenAPI document: the contract's envelopes and records, written first (the
// team's OpenAPI-first habit) and the source of Connexion's request validation.
import { ENVIRONMENTS, type Json } from './state.ts';
import { EVENT_NAMES } from './webhooks.ts';

const s = (minLength: number, maxLength: number): Json => ({ type: 'string', minLength, maxLength });
const obj = (properties: Json, required: string[] = Object.keys(properties)): Json => ({
  type: 'object',
  required,
  properties,
  additionalProperties: true,
});
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const arr = (items: Json): Json => ({ type: 'array', items });
const str: Json = { type: 'string' };
const bool: Json = { type: 'boolean' };
const int: Json = { type: 'integer' };
const time: Json = { type: 'string', format: 'date-time' };

const ERROR_CODES = [
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

export const SCHEMAS: Json = {
  Environment: { type: 'string', enum: [...ENVIRONMENTS] },
  Meta: obj({ requestId: str, version: str, at: time, idempotencyKey: str, replayed: bool }, [
    'requestId',
    'version',
    'at',
  ]),
  Failure: obj({
    ok: { const: false },
    error: obj({ code: { type: 'string', enum: ERROR_CODES }, message: str, detail: str, hint: str }, [
      'code',
      'message',
    ]),
    meta: ref('Meta'),
  }),
  Provider: obj({ id: str, name: str, category: str, summary: str }),
  Connector: obj({ id: str, providerId: str, name: str, category: str, capabilities: arr(str) }),
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
    environment: ref('Environment'),
    scopeLabel: str,
    state: { type: 'string', examples: ['pending_activation', 'active'] },
    capabilities: arr(obj({ capability: str, critical: bool, idempotencyRequired: bool })),
    nextStep: str,
    createdAt: time,
  }),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  IdempotencyKey: obj({ idempotencyKey: str, operation: str, expiresAt: time }),
  CapabilityCheck: obj({ connectorId: s(2, 120), capability: s(2, 120), environment: ref('Environment') }, [
    'connectorId',
    'capability',
  ]),
  ConnectionCreate: obj({
    connectorId: s(2, 120),
    environment: ref('Environment'),
    scopeLabel: s(2, 120),
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: s(2, 120) },
  }),
  IdempotencyKeyCreate: obj({ operation: s(2, 80) }),
  WebhookCreate: obj({
    url: { type: 'string', format: 'uri' },
    events: { type: 'array', minItems: 1, items: { type: 'string', enum: [...EVENT_NAMES] } },
  }),
  Webhook: obj({ id: int, url: str, events: arr(str), active: bool, created_at: time, signing_secret: str }, [
    'id',
    'url',
    'events',
  ]),
  DeliveryAttempt: obj({
    id: int,
    webhook_id: int,
    event_id: int,
    event: str,
    status: { type: 'string', enum: ['queued', 'succeeded', 'retrying', 'failed'] },
    attempts: int,
  }),
  AuditEntry: obj({
    id: int,
    tenant: str,
    action: str,
    actor: str,
    resource_type: str,
    resource_id: str,
    at: time,
    prev_hash: { type: ['string', 'null'] },
    entry_hash: str,
  }),
};

/** The success envelope around one endpoint's data schema. */
export const envelope = (data: Json): Json => obj({ ok: { const: true }, data, meta: ref('Meta') });

export { arr, int, obj, ref, str };
