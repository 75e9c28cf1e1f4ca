// Request bodies of the OpenAPI document, with the interface's required fields and Limits, so the document is
// never wider than the service (which refuses what these schemas refuse).
import type { Rec } from './http.ts';
import { ENVIRONMENTS } from './state.ts';
import { EVENT_NAMES } from './webhooks.ts';

const s = (min: number, max: number): Rec => ({ type: 'string', minLength: min, maxLength: max });
const env: Rec = { type: 'string', enum: ENVIRONMENTS };

export const REQUEST_BODIES: Record<string, Rec> = {
  '/capabilities': {
    type: 'object',
    required: ['connectorId', 'capability'],
    properties: { connectorId: s(2, 120), capability: s(2, 120), environment: { ...env, default: 'sandbox' } },
  },
  '/connections': {
    type: 'object',
    required: ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
    properties: {
      connectorId: s(2, 120),
      environment: env,
      scopeLabel: s(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: s(2, 120) },
    },
  },
  '/idempotency-keys': { type: 'object', required: ['operation'], properties: { operation: s(2, 80) } },
  '/webhooks': {
    type: 'object',
    required: ['url', 'events'],
    properties: {
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', enum: EVENT_NAMES } },
    },
  },
};

const obj = (props: Rec, required: string[] = Object.keys(props)): Rec => ({
  type: 'object',
  required,
  properties: props,
});
const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer' };
const time = { type: 'string', format: 'date-time' };
const list = (items: Rec): Rec => ({ type: 'array', items });

const provider = obj({ id: str, name: str, category: str, summary: str });
const connector = obj({ id: str, providerId: str, name: str, category: str, capabilities: list(str) });
const capability = obj({ id: str, label: str, critical: bool, idempotencyRequired: bool });
const connection = obj({
  id: str,
  connectorId: str,
  environment: env,
  scopeLabel: str,
  state: str,
  capabilities: list(obj({ capability: str, critical: bool, idempotencyRequired: bool })),
  nextStep: str,
  createdAt: time,
});
const route = obj({ method: str, path: str, purpose: str, auth: bool });

/** The `data` of each interface answer, keyed `METHOD path`; the sourwood-only answers stay free-form. */
export const RESPONSE_DATA: Record<string, Rec> = {
  'GET ': obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: list(route),
  }),
  'GET /providers': obj({ count: int, providers: list(provider) }),
  'GET /connectors': obj({ count: int, connectors: list(connector) }),
  'GET /capabilities': obj({ count: int, capabilities: list(capability) }),
  'POST /capabilities': obj({
    decision: obj({
      connectorId: str,
      capability: str,
      allowed: bool,
      critical: bool,
      idempotencyRequired: bool,
      reason: str,
    }),
    environment: env,
  }),
  'GET /connections': obj({ tenant: str, count: int, connections: list(connection) }),
  'POST /connections': connection,
  'POST /idempotency-keys': obj({ idempotencyKey: str, operation: str, expiresAt: time }),
};
