// Component schemas of the OpenAPI document, written by hand from the interface's field tables.
import { ENVIRONMENTS, type Rec } from './state.ts';

const s = { type: 'string' };
const b = { type: 'boolean' };
const i = { type: 'integer' };
const dt = { type: 'string', format: 'date-time' };
const arr = (items: Rec) => ({ type: 'array', items });
const obj = (properties: Rec, required = Object.keys(properties)) => ({ type: 'object', properties, required });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const SCHEMAS: Rec = {
  Meta: obj({ requestId: s, version: s, at: dt, idempotencyKey: s, replayed: b }, ['requestId', 'version', 'at']),
  Failure: obj({
    ok: { const: false },
    error: obj(
      {
        code: {
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
  Environment: { type: 'string', enum: ENVIRONMENTS },
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
    id: { type: 'string', format: 'uuid' },
    connectorId: s,
    environment: ref('Environment'),
    scopeLabel: s,
    state: { type: 'string', enum: ['pending', 'active', 'suspended'] },
    capabilities: arr(obj({ capability: s, critical: b, idempotencyRequired: b })),
    nextStep: s,
    createdAt: dt,
  }),
  RouteInfo: obj({ method: s, path: s, purpose: s, auth: b }),
  IdempotencyKeyResult: obj({ idempotencyKey: s, operation: s, expiresAt: dt }),
  Webhook: obj(
    { id: s, url: { type: 'string', format: 'uri' }, events: arr(s), status: s, created_at: dt, signing_secret: s },
    ['id', 'url', 'events'],
  ),
  Delivery: obj(
    {
      id: s,
      webhook_id: s,
      event_id: s,
      event_type: s,
      status: { enum: ['pending', 'retrying', 'delivered', 'failed'] },
      attempts: i,
      response_status: { type: ['integer', 'null'] },
      created_at: dt,
      last_attempt_at: { type: ['string', 'null'], format: 'date-time' },
      redelivery_of: { type: ['string', 'null'] },
    },
    ['id', 'webhook_id', 'event_id', 'status'],
  ),
  AuditEntry: obj({
    seq: i,
    at: dt,
    action: s,
    resource_type: s,
    resource_id: s,
    actor: s,
    request_id: s,
    prev_hash: s,
    hash: s,
  }),
};

/** The `data` schema of each operation's success envelope. */
export const DATA: Record<string, Rec> = {
  describe: obj({
    service: s,
    surface: s,
    version: s,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: arr(ref('RouteInfo')),
  }),
  info: obj({ service: s, version: s, client: s, tenant: s }),
  list_providers: obj({ count: i, providers: arr(ref('Provider')) }),
  list_connectors: obj({ count: i, connectors: arr(ref('Connector')) }),
  list_capabilities: obj({ count: i, capabilities: arr(ref('Capability')) }),
  check_capability: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  list_connections: obj({ tenant: s, count: i, connections: arr(ref('Connection')) }),
  create_connection: ref('Connection'),
  create_idempotency_key: ref('IdempotencyKeyResult'),
  list_webhooks: obj({ count: i, webhooks: arr(ref('Webhook')) }),
  create_webhook: ref('Webhook'),
  get_webhook: ref('Webhook'),
  delete_webhook: obj({ id: s, deleted: b }),
  list_delivery_attempts: obj({ webhook_id: s, count: i, deliveries: arr(ref('Delivery')) }),
  replay_delivery_attempt: ref('Delivery'),
  audit_log: obj({
    tenant: s,
    order: s,
    count: i,
    entries: arr(ref('AuditEntry')),
    next_page: { type: ['string', 'null'] },
    proof: { type: 'object' },
  }),
};

/** Request bodies, with the interface's limits. */
export const BODIES: Record<string, Rec> = {
  check_capability: obj(
    {
      connectorId: { type: 'string', minLength: 2, maxLength: 120 },
      capability: { type: 'string', minLength: 2, maxLength: 120 },
      environment: ref('Environment'),
    },
    ['connectorId', 'capability'],
  ),
  create_connection: obj({
    connectorId: { type: 'string', minLength: 2, maxLength: 120 },
    environment: ref('Environment'),
    scopeLabel: { type: 'string', minLength: 2, maxLength: 120 },
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: { type: 'string', minLength: 2, maxLength: 120 } },
  }),
  create_idempotency_key: obj({ operation: { type: 'string', minLength: 2, maxLength: 80 } }),
};
