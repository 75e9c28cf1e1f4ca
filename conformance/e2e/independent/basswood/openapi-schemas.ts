// Component schemas of Basswood's OpenAPI document (written by hand, as an rswag team keeps its swagger
// helper): the envelopes and the interface's records; additional properties are left open.
import { ENVIRONMENTS, type Rec, WEBHOOK_EVENTS } from './state.ts';

const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer' };
const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
const obj = (properties: Rec, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const list = (name: string, item: Rec) => obj({ count: int, [name]: { type: 'array', items: item } });
const bounded = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });

export const SCHEMAS: Rec = {
  Meta: obj(
    { requestId: str, version: str, at: { type: 'string', format: 'date-time' }, idempotencyKey: str, replayed: bool },
    ['requestId', 'version', 'at'],
  ),
  Failure: obj({
    ok: { const: false },
    error: obj({ code: str, message: str, detail: str, hint: str }, ['code', 'message']),
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
  Connection: obj({
    id: str,
    connectorId: str,
    environment: ref('Environment'),
    scopeLabel: str,
    state: str,
    capabilities: { type: 'array', items: obj({ capability: str, critical: bool, idempotencyRequired: bool }) },
    nextStep: str,
    createdAt: { type: 'string', format: 'date-time' },
  }),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
};

/** The `data` schema of each operation, by "METHOD path". */
export const DATA: Rec = {
  'GET ': obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  'GET /providers': list('providers', ref('Provider')),
  'GET /connectors': list('connectors', ref('Connector')),
  'GET /capabilities': list('capabilities', ref('Capability')),
  'POST /capabilities': obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  'GET /connections': obj({ tenant: str, count: int, connections: { type: 'array', items: ref('Connection') } }),
  'POST /connections': ref('Connection'),
  'POST /idempotency-keys': obj({
    idempotencyKey: str,
    operation: str,
    expiresAt: { type: 'string', format: 'date-time' },
  }),
};

/** Request bodies, by "METHOD path". */
export const BODIES: Rec = {
  'POST /capabilities': obj(
    { connectorId: bounded(2, 120), capability: bounded(2, 120), environment: ref('Environment') },
    ['connectorId', 'capability'],
  ),
  'POST /connections': obj({
    connectorId: bounded(2, 120),
    environment: ref('Environment'),
    scopeLabel: bounded(2, 120),
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: bounded(2, 120) },
  }),
  'POST /idempotency-keys': obj({ operation: bounded(2, 80) }),
  'POST /webhooks': obj({
    url: { type: 'string', format: 'uri' },
    events: { type: 'array', minItems: 1, items: { type: 'string', enum: WEBHOOK_EVENTS } },
  }),
};

/** Query parameters with an example each, by "METHOD path". */
export const QUERY: Record<string, [string, Rec, unknown][]> = {
  'GET /providers': [['category', str, 'pos']],
  'GET /connectors': [
    ['capability', str, 'orders.read'],
    ['providerId', str, 'tillpoint'],
    ['category', str, 'pos'],
  ],
  'GET /stream': [['cursor', { type: 'integer', minimum: 0 }, 0]],
  'GET /audit-log': [
    ['limit', { type: 'integer', minimum: 1, maximum: 100 }, 25],
    ['page', { type: 'integer', minimum: 1 }, 1],
  ],
  'GET /webhooks/{webhook_id}/delivery_attempts': [
    ['page', { type: 'integer', minimum: 1 }, 1],
    ['per_page', { type: 'integer', minimum: 1, maximum: 100 }, 30],
  ],
};
