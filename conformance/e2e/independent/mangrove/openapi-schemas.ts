// Components and the `data` schema of every answer of the OpenAPI document (what mangrove serves, with
// the fields the interface requires marked required; further fields are allowed, as the interface says).
import { STATUS } from './http.ts';
import { ENVIRONMENTS, WEBHOOK_EVENTS } from './state.ts';

const P = '/api/public/v1';

export const s = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
export const obj = (properties: Record<string, unknown>, required: string[]) => ({
  type: 'object',
  properties,
  required,
});
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const schemas = {
  Meta: obj(
    {
      requestId: { type: 'string' },
      version: { type: 'string' },
      at: { type: 'string', format: 'date-time' },
      idempotencyKey: { type: 'string' },
      replayed: { type: 'boolean' },
    },
    ['requestId', 'version', 'at'],
  ),
  Error: obj(
    {
      ok: { const: false },
      error: obj(
        {
          code: { type: 'string', enum: Object.keys(STATUS) },
          message: { type: 'string' },
          detail: { type: 'string' },
          hint: { type: 'string' },
        },
        ['code', 'message'],
      ),
      meta: ref('Meta'),
    },
    ['ok', 'error', 'meta'],
  ),
  RouteInfo: obj(
    { method: { type: 'string' }, path: { type: 'string' }, purpose: { type: 'string' }, auth: { type: 'boolean' } },
    ['method', 'path', 'purpose', 'auth'],
  ),
  Provider: obj(
    { id: { type: 'string' }, name: { type: 'string' }, category: { type: 'string' }, summary: { type: 'string' } },
    ['id', 'name', 'category', 'summary'],
  ),
  Connector: obj(
    {
      id: { type: 'string' },
      providerId: { type: 'string' },
      name: { type: 'string' },
      category: { type: 'string' },
      capabilities: { type: 'array', items: { type: 'string' } },
    },
    ['id', 'providerId', 'name', 'category', 'capabilities'],
  ),
  Capability: obj(
    {
      id: { type: 'string' },
      label: { type: 'string' },
      critical: { type: 'boolean' },
      idempotencyRequired: { type: 'boolean' },
    },
    ['id', 'label', 'critical', 'idempotencyRequired'],
  ),
  CapabilityDecision: obj(
    {
      connectorId: { type: 'string' },
      capability: { type: 'string' },
      allowed: { type: 'boolean' },
      critical: { type: 'boolean' },
      idempotencyRequired: { type: 'boolean' },
      reason: { type: 'string' },
    },
    ['connectorId', 'capability', 'allowed', 'critical', 'idempotencyRequired', 'reason'],
  ),
  Environment: { type: 'string', enum: [...ENVIRONMENTS] },
  Connection: obj(
    {
      id: { type: 'string' },
      connectorId: { type: 'string' },
      environment: ref('Environment'),
      scopeLabel: { type: 'string' },
      state: { type: 'string', enum: ['provisioning', 'ready'] },
      capabilities: {
        type: 'array',
        items: obj(
          { capability: { type: 'string' }, critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } },
          ['capability', 'critical', 'idempotencyRequired'],
        ),
      },
      nextStep: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
      updated_at: { type: 'string', format: 'date-time' },
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
};

const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer' };
const time = { type: 'string', format: 'date-time' };
const list = (items: unknown) => ({ type: 'array', items });
const counted = (field: string, item: unknown, more: Record<string, unknown> = {}) =>
  obj({ count: int, [field]: list(item), ...more }, ['count', field, ...Object.keys(more)]);

const webhook = obj(
  { id: str, url: str, events: list({ type: 'string', enum: [...WEBHOOK_EVENTS] }), active: bool, created_at: time },
  ['id', 'url', 'events', 'active', 'created_at'],
);
const delivery = obj(
  {
    id: str,
    webhook_id: str,
    event_id: str,
    event: str,
    status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
    attempts: int,
    response_status: { type: ['integer', 'null'] },
    redelivery_of: { type: ['string', 'null'] },
    created_at: time,
    last_attempt_at: { type: ['string', 'null'], format: 'date-time' },
    next_retry_at: { type: ['string', 'null'], format: 'date-time' },
    payload: { type: 'object' },
  },
  ['id', 'webhook_id', 'event_id', 'event', 'status', 'attempts', 'created_at', 'payload'],
);
const auditEntry = obj(
  {
    id: str,
    tenant: str,
    position: int,
    action: str,
    resource_type: str,
    resource_id: str,
    actor: str,
    request_id: str,
    changes: { type: 'object' },
    created_at: time,
    previous_digest: { type: ['string', 'null'] },
    digest: str,
  },
  ['id', 'position', 'action', 'resource_type', 'resource_id', 'created_at', 'previous_digest', 'digest'],
);

/** The `data` of each operation's success answer, by "METHOD path". */
export const DATA: Record<string, unknown> = {
  [`GET ${P}`]: obj(
    {
      service: str,
      surface: str,
      version: str,
      authentication: { type: 'object' },
      idempotency: { type: 'object' },
      routes: list(ref('RouteInfo')),
    },
    ['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'],
  ),
  [`GET ${P}/info`]: obj({ tenant: str, client_id: str, environment: str }, ['tenant', 'client_id', 'environment']),
  [`GET ${P}/providers`]: counted('providers', ref('Provider')),
  [`GET ${P}/connectors`]: counted('connectors', ref('Connector')),
  [`GET ${P}/capabilities`]: counted('capabilities', ref('Capability')),
  [`POST ${P}/capabilities`]: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }, [
    'decision',
    'environment',
  ]),
  [`GET ${P}/connections`]: counted('connections', ref('Connection'), { tenant: str }),
  [`POST ${P}/connections`]: ref('Connection'),
  [`GET ${P}/connections/{id}`]: ref('Connection'),
  [`POST ${P}/idempotency-keys`]: obj({ idempotencyKey: str, operation: str, expiresAt: time }, [
    'idempotencyKey',
    'operation',
    'expiresAt',
  ]),
  [`POST ${P}/webhooks`]: { allOf: [webhook, obj({ signing_secret: str }, ['signing_secret'])] },
  [`GET ${P}/webhooks`]: counted('webhooks', webhook),
  [`GET ${P}/webhooks/{id}`]: webhook,
  [`DELETE ${P}/webhooks/{id}`]: { allOf: [webhook, obj({ deleted: bool }, ['deleted'])] },
  [`GET ${P}/webhooks/{id}/deliveries`]: counted('deliveries', delivery, { webhook_id: str }),
  [`POST ${P}/webhook_deliveries/{id}/redeliver`]: delivery,
  [`GET ${P}/audit-log`]: counted('entries', auditEntry, {
    tenant: str,
    total_count: int,
    page: int,
    per_page: int,
    proof: obj({ algorithm: str, chain_length: int, head_digest: { type: ['string', 'null'] } }, [
      'algorithm',
      'chain_length',
      'head_digest',
    ]),
  }),
};
