// Component schemas of the generated document (the "#[OA\Schema]" annotations of the models).
import { ENV_ENUM, type Json } from './annotations.ts';
import { EVENT_NAMES } from './webhooks.ts';

const s = { type: 'string' };
const i = { type: 'integer' };
const b = { type: 'boolean' };
const dt = { type: 'string', format: 'date-time' };
const ns = { type: ['string', 'null'] };
const obj = (required: string[], properties: Json, extra: Json = {}): Json => ({
  type: 'object',
  required,
  properties,
  ...extra,
});

export const SCHEMAS: Json = {
  Environment: { type: 'string', enum: ENV_ENUM },
  Meta: obj(['requestId', 'version', 'at'], {
    requestId: s,
    version: s,
    at: dt,
    idempotencyKey: s,
    replayed: b,
  }),
  Provider: obj(['id', 'name', 'category', 'summary'], { id: s, name: s, category: s, summary: s }),
  Connector: obj(['id', 'providerId', 'name', 'category', 'capabilities'], {
    id: s,
    providerId: s,
    name: s,
    category: s,
    capabilities: { type: 'array', items: s },
  }),
  Capability: obj(['id', 'label', 'critical', 'idempotencyRequired'], {
    id: s,
    label: s,
    critical: b,
    idempotencyRequired: b,
  }),
  CapabilityDecision: obj(['connectorId', 'capability', 'allowed', 'critical', 'idempotencyRequired', 'reason'], {
    connectorId: s,
    capability: s,
    allowed: b,
    critical: b,
    idempotencyRequired: b,
    reason: s,
  }),
  Connection: obj(
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
    {
      id: { type: 'string', examples: ['con_1'] },
      connectorId: s,
      environment: { $ref: '#/components/schemas/Environment' },
      scopeLabel: s,
      state: { type: 'string', examples: ['pending', 'active'] },
      capabilities: {
        type: 'array',
        items: obj(['capability', 'critical', 'idempotencyRequired'], {
          capability: s,
          critical: b,
          idempotencyRequired: b,
        }),
      },
      nextStep: { type: 'string', examples: ['await_activation', 'none'] },
      createdAt: dt,
    },
  ),
  RouteInfo: obj(['method', 'path', 'purpose', 'auth'], { method: s, path: s, purpose: s, auth: b }),
  IdempotencyKeyResult: obj(['idempotencyKey', 'operation', 'expiresAt'], {
    idempotencyKey: s,
    operation: s,
    expiresAt: dt,
  }),
  WebhookEvent: { type: 'string', enum: EVENT_NAMES },
  WebhookCreated: obj(
    ['id', 'url', 'events', 'status', 'created_at'],
    {
      id: { type: 'string', examples: ['whk_1'] },
      url: s,
      events: { type: 'array', items: { $ref: '#/components/schemas/WebhookEvent' } },
      status: s,
      created_at: dt,
      signing_secret: { type: 'string', description: 'issued once, in the answer of the first call; store it at once' },
    },
    { 'x-signature-header': 'X-Signature', 'x-delivery-id-header': 'X-Webhook-Delivery' },
  ),
  Delivery: obj(['id', 'webhook_id', 'event_id', 'event', 'status', 'attempts_count', 'created_at'], {
    id: { type: 'string', examples: ['dlv_1'] },
    webhook_id: s,
    event_id: s,
    event: s,
    status: { type: 'string', enum: ['queued', 'delivered', 'failed', 'retrying'] },
    attempts_count: i,
    response_status: { type: ['integer', 'null'] },
    last_attempt_at: { type: ['string', 'null'], format: 'date-time' },
    retry_of: ns,
    attempts: {
      type: 'array',
      items: obj(['attempt', 'attempted_at'], {
        attempt: i,
        status_code: { type: ['integer', 'null'] },
        error: ns,
        attempted_at: dt,
      }),
    },
    created_at: dt,
  }),
  AuditEntry: obj(['id', 'sequence', 'event', 'created_at', 'prev_hash', 'hash'], {
    id: s,
    sequence: i,
    event: s,
    auditable_type: s,
    auditable_id: s,
    causer_id: s,
    request_id: s,
    idempotency_key: ns,
    url: s,
    new_values: { type: 'object' },
    created_at: dt,
    prev_hash: s,
    hash: s,
  }),
  AuditProof: obj(['head_sequence', 'head_hash', 'signature'], {
    chain_algorithm: s,
    chain_formula: s,
    head_sequence: i,
    head_hash: s,
    signature_algorithm: s,
    key_id: s,
    signature: s,
    signed_at: dt,
  }),
  PaginationLinks: obj(['first', 'last', 'prev', 'next'], { first: s, last: s, prev: ns, next: ns }),
  PaginationMeta: obj(['current_page', 'last_page', 'per_page', 'total'], {
    current_page: i,
    from: { type: ['integer', 'null'] },
    last_page: i,
    path: s,
    per_page: i,
    to: { type: ['integer', 'null'] },
    total: i,
  }),
  Failure: obj(['ok', 'error', 'meta'], {
    ok: { type: 'boolean', const: false },
    error: obj(['code', 'message'], {
      code: s,
      message: s,
      detail: s,
      hint: s,
      errors: { type: 'object', additionalProperties: { type: 'array', items: s } },
    }),
    meta: { $ref: '#/components/schemas/Meta' },
  }),
};
