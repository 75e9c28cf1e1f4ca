// JSON Schema pieces of ebony's OpenAPI description: helpers for the route table and the named components.
import { ENVIRONMENTS } from './http.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const str = (min: number, max: number): Schema => ({ type: 'string', minLength: min, maxLength: max });
export const list = (field: string, item: string, extra: Schema = {}): Schema => ({
  type: 'object',
  required: ['count', field],
  properties: { ...extra, count: { type: 'integer' }, [field]: { type: 'array', items: ref(item) } },
});
export const q = (name: string, description: string, schema: Schema = { type: 'string' }) => ({
  name,
  schema,
  description,
});

const s = { type: 'string' };
const i = { type: 'integer' };
const b = { type: 'boolean' };
const dt = { type: 'string', format: 'date-time' };
export const obj = (props: Record<string, unknown>, required = Object.keys(props)): Schema => ({
  type: 'object',
  required,
  properties: props,
});

export const SCHEMAS: Record<string, Schema> = {
  Meta: obj({ requestId: s, version: s, at: dt, idempotencyKey: s, replayed: b }, ['requestId', 'version', 'at']),
  Failure: obj({
    ok: { type: 'boolean', const: false },
    error: obj(
      {
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
        message: s,
        detail: s,
        hint: s,
      },
      ['code', 'message'],
    ),
    meta: ref('Meta'),
  }),
  Environment: { type: 'string', enum: [...ENVIRONMENTS] },
  Provider: obj({ id: s, name: s, category: s, summary: s }),
  Connector: obj({ id: s, providerId: s, name: s, category: s, capabilities: { type: 'array', items: s } }),
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
    id: { type: 'string', pattern: '^CN[0-9]{8}$' },
    connectorId: s,
    environment: ref('Environment'),
    scopeLabel: s,
    state: { type: 'string', enum: ['PEND', 'ACTV', 'PAUS', 'TERM'] },
    capabilities: { type: 'array', items: obj({ capability: s, critical: b, idempotencyRequired: b }) },
    nextStep: s,
    createdAt: dt,
  }),
  RouteInfo: obj({ method: s, path: s, purpose: s, auth: b }),
  SelfDescription: obj({
    service: s,
    surface: s,
    version: s,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  Info: obj({ service: s, region: s, environment: s, version: s, tenant: s, clientId: s }),
  IdempotencyKeyResult: obj({ idempotencyKey: s, operation: s, expiresAt: dt }),
  WebhookEvent: { type: 'string', enum: [...WEBHOOK_EVENTS] },
  Webhook: obj({
    id: { type: 'string', pattern: '^WH[0-9]{8}$' },
    url: s,
    events: { type: 'array', items: ref('WebhookEvent') },
    state: s,
    createdAt: dt,
  }),
  WebhookCreated: {
    allOf: [
      ref('Webhook'),
      obj({
        signingKey: {
          type: 'string',
          description: 'HMAC-SHA256 key for X-Ebony-Signature; issued only in this answer',
        },
      }),
    ],
  },
  Delivery: obj({
    id: { type: 'string', pattern: '^DL[0-9]{10}$' },
    webhookId: s,
    eventId: s,
    event: s,
    status: { type: 'string', enum: ['QUED', 'SENT', 'RTRY', 'FAIL'] },
    attempts: i,
    responseStatus: { type: ['integer', 'null'] },
    createdAt: dt,
    lastAttemptAt: { type: ['string', 'null'], format: 'date-time' },
    redeliveryOf: { type: ['string', 'null'] },
  }),
  AuditEntry: obj({
    seq: i,
    at: dt,
    tenant: s,
    actor: s,
    action: s,
    resourceType: s,
    resourceId: s,
    requestId: s,
    prevHash: s,
    hash: s,
  }),
  AuditLog: obj({
    tenant: s,
    count: i,
    total: i,
    entries: { type: 'array', items: ref('AuditEntry') },
    proof: { type: 'object' },
  }),
};
