// The schemas of hackberry's OpenAPI document: components, request bodies, each answer's data, query
// parameters, the way the team's hand-written document lays them out.
import type { Rec } from './http.ts';
import { ENVIRONMENTS, WEBHOOK_EVENTS } from './state.ts';

export const str = { type: 'string' };
export const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
export const obj = (properties: Rec, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const text = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });

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
export const int = { schema: { type: 'integer', minimum: 0 } };
export const LIMIT_HEADERS = { 'X-RateLimit-Limit': int, 'X-RateLimit-Remaining': int };

export const SCHEMAS: Rec = {
  Environment: { type: 'string', enum: [...ENVIRONMENTS] },
  Meta: {
    ...obj({ requestId: str, version: str, at: { type: 'string', format: 'date-time' } }),
    properties: {
      requestId: str,
      version: str,
      at: { type: 'string', format: 'date-time' },
      idempotencyKey: str,
      replayed: { type: 'boolean' },
    },
  },
  Failure: obj({
    ok: { const: false },
    error: {
      ...obj({ code: str, message: str }),
      properties: { code: { type: 'string', enum: CODES }, message: str, detail: str, hint: str },
    },
    meta: ref('Meta'),
  }),
  Provider: obj({ id: str, name: str, category: str, summary: str }),
  Connector: obj({ id: str, providerId: str, name: str, category: str, capabilities: { type: 'array', items: str } }),
  Capability: obj({ id: str, label: str, critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
  CapabilityDecision: obj({
    connectorId: str,
    capability: str,
    allowed: { type: 'boolean' },
    critical: { type: 'boolean' },
    idempotencyRequired: { type: 'boolean' },
    reason: str,
  }),
  Connection: obj({
    id: { type: 'string', format: 'uuid' },
    connectorId: str,
    environment: ref('Environment'),
    scopeLabel: str,
    state: { type: 'string', examples: ['active', 'pending_review'] },
    capabilities: {
      type: 'array',
      items: obj({ capability: str, critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
    },
    nextStep: str,
    createdAt: { type: 'string', format: 'date-time' },
  }),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: { type: 'boolean' } }),
  IdempotencyKeyResult: obj({
    idempotencyKey: str,
    operation: str,
    expiresAt: { type: 'string', format: 'date-time' },
  }),
};

export const BODIES: Record<string, Rec> = {
  checkCapability: obj({ connectorId: text(2, 120), capability: text(2, 120), environment: ref('Environment') }, [
    'connectorId',
    'capability',
  ]),
  createConnection: obj({
    connectorId: text(2, 120),
    environment: ref('Environment'),
    scopeLabel: text(2, 120),
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: text(2, 120) },
  }),
  createIdempotencyKey: obj({ operation: text(2, 80) }),
  createWebhook: obj({
    url: { type: 'string', format: 'uri' },
    events: { type: 'array', minItems: 1, items: { type: 'string', enum: WEBHOOK_EVENTS } },
  }),
};

const list = (name: string, item: string) =>
  obj({ count: { type: 'integer' }, [name]: { type: 'array', items: ref(item) } });

/** The data of each success answer; the others are free-form objects (not shown by the interface). */
export const DATA: Record<string, Rec> = {
  describe: obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  listProviders: list('providers', 'Provider'),
  listConnectors: list('connectors', 'Connector'),
  listCapabilities: list('capabilities', 'Capability'),
  checkCapability: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  listConnections: obj({
    tenant: str,
    count: { type: 'integer' },
    connections: { type: 'array', items: ref('Connection') },
  }),
  createConnection: ref('Connection'),
  createIdempotencyKey: ref('IdempotencyKeyResult'),
};

export const QUERY: Record<string, string[]> = {
  listProviders: ['category'],
  listConnectors: ['capability', 'providerId', 'category'],
};
