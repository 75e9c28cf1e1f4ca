// Schemas of the OpenAPI document: the interface's resources as components, the `data` of each route's success
// envelope, and the query parameters of each route, keyed by "METHOD /relative-path".
import { ENVIRONMENTS } from './catalog.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str = { type: 'string' };
const int = { type: 'integer' };
const bool = { type: 'boolean' };
const time = { type: 'string', format: 'date-time' };
const obj = (required: string[], properties: Record<string, unknown>) => ({ type: 'object', required, properties });
const list = (item: string, name: string) =>
  obj(['count', name], { count: int, [name]: { type: 'array', items: ref(item) } });

export const COMPONENTS: Record<string, unknown> = {
  Environment: { type: 'string', enum: ENVIRONMENTS },
  Provider: obj(['id', 'name', 'category', 'summary'], { id: str, name: str, category: str, summary: str }),
  Connector: obj(['id', 'providerId', 'name', 'category', 'capabilities'], {
    id: str,
    providerId: str,
    name: str,
    category: str,
    capabilities: { type: 'array', items: str },
  }),
  Capability: obj(['id', 'label', 'critical', 'idempotencyRequired'], {
    id: str,
    label: str,
    critical: bool,
    idempotencyRequired: bool,
  }),
  CapabilityDecision: obj(['connectorId', 'capability', 'allowed', 'critical', 'idempotencyRequired', 'reason'], {
    connectorId: str,
    capability: str,
    allowed: bool,
    critical: bool,
    idempotencyRequired: bool,
    reason: str,
  }),
  Connection: obj(
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
    {
      id: str,
      connectorId: str,
      environment: ref('Environment'),
      scopeLabel: str,
      state: str,
      capabilities: {
        type: 'array',
        items: obj(['capability', 'critical', 'idempotencyRequired'], {
          capability: str,
          critical: bool,
          idempotencyRequired: bool,
        }),
      },
      nextStep: str,
      createdAt: time,
    },
  ),
  RouteInfo: obj(['method', 'path', 'purpose', 'auth'], { method: str, path: str, purpose: str, auth: bool }),
  IdempotencyKeyResult: obj(['idempotencyKey', 'operation', 'expiresAt'], {
    idempotencyKey: str,
    operation: str,
    expiresAt: time,
  }),
  Meta: obj(['requestId', 'version', 'at'], {
    requestId: str,
    version: str,
    at: time,
    idempotencyKey: str,
    replayed: bool,
  }),
  Failure: obj(['ok', 'error', 'meta'], {
    ok: { const: false },
    error: obj(['code', 'message'], {
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
      message: str,
      detail: str,
      hint: str,
    }),
    meta: ref('Meta'),
  }),
};

/** The `data` of each route's success envelope. */
export const DATA: Record<string, unknown> = {
  'GET ': obj(['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'], {
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  'GET /providers': list('Provider', 'providers'),
  'GET /connectors': list('Connector', 'connectors'),
  'GET /capabilities': list('Capability', 'capabilities'),
  'POST /capabilities': obj(['decision', 'environment'], {
    decision: ref('CapabilityDecision'),
    environment: ref('Environment'),
  }),
  'GET /connections': obj(['tenant', 'count', 'connections'], {
    tenant: str,
    count: int,
    connections: { type: 'array', items: ref('Connection') },
  }),
  'POST /connections': ref('Connection'),
  'GET /connections/{connectionId}': ref('Connection'),
  'POST /idempotency-keys': ref('IdempotencyKeyResult'),
  'POST /webhooks': obj(['id', 'url', 'events', 'createdAt', 'signingKey'], {
    id: str,
    url: str,
    events: { type: 'array', items: str },
    createdAt: time,
    status: str,
    signingKey: { type: ['string', 'null'], description: 'issued exactly once; null on a replay' },
  }),
  'GET /audit-log': obj(['tenant', 'count', 'entries', 'proof'], {
    tenant: str,
    count: int,
    total: int,
    entries: { type: 'array', items: { type: 'object' } },
    proof: { type: 'object' },
  }),
};

/** Query parameters of each route. */
export const QUERY: Record<string, { name: string; schema: unknown; description?: string; example?: unknown }[]> = {
  'GET /providers': [{ name: 'category', schema: str, description: 'restricts to one category' }],
  'GET /connectors': [
    { name: 'capability', schema: str },
    { name: 'providerId', schema: str },
    { name: 'category', schema: str },
  ],
  'GET /stream': [
    { name: 'cursor', schema: { type: 'integer', minimum: 0 }, description: 'last number read', example: 42 },
  ],
  'GET /audit-log': [{ name: 'limit', schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 } }],
};
