// Response schemas of palmetto's OpenAPI document: the records as swagger-core would derive them from the
// Jackson DTOs (every field the interface requires is `required`; further fields are allowed).
import type { Rec } from './http.ts';

const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer' };
const time = { type: 'string', format: 'date-time' };
const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
const obj = (props: Rec, required = Object.keys(props)): Rec => ({ type: 'object', required, properties: props });
const list = (name: string, item: string, extra: Rec = {}) =>
  obj({ ...extra, count: int, [name]: { type: 'array', items: ref(item) } });

export const ENVIRONMENT = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };

export const COMPONENTS: Rec = {
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
    environment: ENVIRONMENT,
    scopeLabel: str,
    state: str,
    capabilities: { type: 'array', items: obj({ capability: str, critical: bool, idempotencyRequired: bool }) },
    nextStep: str,
    createdAt: time,
  }),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
};

/** The `data` schema of each interface operation, by "METHOD path-suffix". */
export const DATA: Record<string, Rec> = {
  'GET ': obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  'GET /providers': list('providers', 'Provider'),
  'GET /connectors': list('connectors', 'Connector'),
  'GET /capabilities': list('capabilities', 'Capability'),
  'POST /capabilities': obj({ decision: ref('CapabilityDecision'), environment: ENVIRONMENT }),
  'GET /connections': list('connections', 'Connection', { tenant: str }),
  'POST /connections': ref('Connection'),
  'POST /idempotency-keys': obj({ idempotencyKey: str, operation: str, expiresAt: time }),
  'POST /webhooks': obj({ id: int, url: str, events: { type: 'array', items: str }, signingKey: str, createdAt: time }),
};
