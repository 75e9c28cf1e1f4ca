// Response `data` schemas of the interface's endpoints, each with the fields interface.md requires
// (further fields allowed), so the published document is no wider than the interface.
import type { Rec } from './state.ts';
import { ENVIRONMENTS } from './state.ts';

const S = { type: 'string' };
const B = { type: 'boolean' };
const I = { type: 'integer' };
const T = { type: 'string', format: 'date-time' };
const obj = (props: Rec): Rec => ({ type: 'object', required: Object.keys(props), properties: props });
const list = (name: string, item: Rec): Rec => obj({ count: I, [name]: { type: 'array', items: item } });

const provider = obj({ id: S, name: S, category: S, summary: S });
const connector = obj({ id: S, providerId: S, name: S, category: S, capabilities: { type: 'array', items: S } });
const capability = obj({ id: S, label: S, critical: B, idempotencyRequired: B });
const environment = { type: 'string', enum: [...ENVIRONMENTS] };
const decision = obj({ connectorId: S, capability: S, allowed: B, critical: B, idempotencyRequired: B, reason: S });
const connection = obj({
  id: S,
  connectorId: S,
  environment,
  scopeLabel: S,
  state: S,
  capabilities: { type: 'array', items: obj({ capability: S, critical: B, idempotencyRequired: B }) },
  nextStep: S,
  createdAt: T,
});
const route = obj({ method: S, path: S, purpose: S, auth: B });

/** `data` of each documented operation, by "METHOD path-suffix". */
export const DATA: Record<string, Rec> = {
  'GET ': obj({
    service: S,
    surface: S,
    version: S,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: route },
  }),
  'GET /providers': list('providers', provider),
  'GET /connectors': list('connectors', connector),
  'GET /capabilities': list('capabilities', capability),
  'POST /capabilities': obj({ decision, environment }),
  'GET /connections': obj({ tenant: S, count: I, connections: { type: 'array', items: connection } }),
  'POST /connections': connection,
  'POST /idempotency-keys': obj({ idempotencyKey: S, operation: S, expiresAt: T }),
};

/** The success envelope with `data` as given. */
export function envelope(data: Rec): Rec {
  return {
    type: 'object',
    required: ['ok', 'data', 'meta'],
    properties: { ok: { const: true }, data, meta: { $ref: '#/components/schemas/Meta' } },
  };
}

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

export const META = {
  type: 'object',
  required: ['requestId', 'version', 'at'],
  properties: {
    requestId: { type: 'string' },
    version: { type: 'string' },
    at: { type: 'string', format: 'date-time' },
    idempotencyKey: { type: 'string' },
    replayed: { type: 'boolean' },
  },
};
export const ERROR = {
  type: 'object',
  required: ['ok', 'error', 'meta'],
  properties: {
    ok: { const: false },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: ERROR_CODES },
        message: { type: 'string' },
        detail: { type: 'string' },
        hint: { type: 'string' },
      },
    },
    meta: { $ref: '#/components/schemas/Meta' },
  },
};
