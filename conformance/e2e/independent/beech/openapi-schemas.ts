// The schemas, examples and parameters of the rswag document (every operation carries an example).
import { capabilities, connectors, providers } from './catalog.ts';
import { CURRENT_VERSION } from './http-kit.ts';
import { EVENT_NAMES } from './webhooks.ts';
export const str = { type: 'string' };
const int = { type: 'integer' };
export const bool = { type: 'boolean' };
const time = { type: 'string', format: 'date-time', example: '2026-07-01T09:30:00.000Z' };
export const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const env = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'], example: 'sandbox' };
const text = (min: number, max: number, example: string) => ({
  type: 'string',
  minLength: min,
  maxLength: max,
  example,
});
const arr = (items: unknown) => ({ type: 'array', items });

export const meta = obj(
  { requestId: str, version: { ...str, example: CURRENT_VERSION }, at: time, idempotencyKey: str, replayed: bool },
  ['requestId', 'version', 'at'],
);
const connection = obj({
  id: { ...str, example: '42' },
  connectorId: { ...str, example: 'paylane-checkout' },
  environment: env,
  scopeLabel: { ...str, example: 'Harbour Kitchen' },
  state: { ...str, example: 'pending' },
  capabilities: arr(obj({ capability: str, critical: bool, idempotencyRequired: bool })),
  nextStep: { ...str, example: 'await_provisioning' },
  createdAt: time,
});
const connectionExample = {
  id: '42',
  connectorId: 'paylane-checkout',
  environment: 'sandbox',
  scopeLabel: 'Harbour Kitchen',
  state: 'pending',
  capabilities: [{ capability: 'payments.charge', critical: true, idempotencyRequired: true }],
  nextStep: 'await_provisioning',
  createdAt: '2026-07-01T09:30:00.000Z',
  created_at: '2026-07-01T09:30:00.000Z',
  updated_at: '2026-07-01T09:30:00.000Z',
};

export const data: Record<string, [unknown, unknown]> = {
  'GET /api/public/v1/providers': [
    obj({ count: int, providers: arr(obj({ id: str, name: str, category: str, summary: str })) }),
    { count: 1, providers: providers.slice(0, 1) },
  ],
  'GET /api/public/v1/connectors': [
    obj({
      count: int,
      connectors: arr(obj({ id: str, providerId: str, name: str, category: str, capabilities: arr(str) })),
    }),
    { count: 1, connectors: connectors.slice(0, 1) },
  ],
  'GET /api/public/v1/capabilities': [
    obj({ count: int, capabilities: arr(obj({ id: str, label: str, critical: bool, idempotencyRequired: bool })) }),
    { count: 1, capabilities: capabilities.slice(0, 1) },
  ],
  'POST /api/public/v1/capabilities': [
    obj({
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
    {
      decision: {
        connectorId: 'paylane-checkout',
        capability: 'payments.charge',
        allowed: true,
        critical: true,
        idempotencyRequired: true,
        reason: 'offered by Paylane Checkout in sandbox',
      },
      environment: 'sandbox',
    },
  ],
  'GET /api/public/v1/connections': [
    obj({ tenant: str, count: int, connections: arr(connection) }),
    { tenant: 'beech-bakery', count: 1, connections: [connectionExample] },
  ],
  'POST /api/public/v1/connections': [connection, connectionExample],
  'POST /api/public/v1/idempotency-keys': [
    obj({ idempotencyKey: str, operation: str, expiresAt: time }),
    {
      idempotencyKey: 'connection.create:3f9a0c7e',
      operation: 'connection.create',
      expiresAt: '2026-07-02T09:30:00.000Z',
    },
  ],
  'POST /api/public/v1/webhooks': [
    obj({ id: str, url: str, events: arr({ type: 'string', enum: EVENT_NAMES }), signingKey: str }),
    {
      id: '7',
      url: 'https://hooks.example/beech',
      events: ['connection.created'],
      active: true,
      signingKey: 'whsec_…',
      signatureHeader: 'X-Beech-Signature',
    },
  ],
  'GET /api/public/v1/audit-log': [
    obj({ tenant: str, count: int, entries: arr({ type: 'object' }), proof: { type: 'object' } }),
    undefined,
  ],
  'GET /api/public/v1/webhooks/{webhookId}/deliveries': [
    obj({ webhookId: str, count: int, deliveries: arr({ type: 'object' }) }),
    undefined,
  ],
};

export const bodies: Record<string, [unknown, unknown]> = {
  'POST /api/public/v1/capabilities': [
    obj(
      {
        connectorId: text(2, 120, 'paylane-checkout'),
        capability: text(2, 120, 'payments.charge'),
        environment: { ...env, default: 'sandbox' },
      },
      ['connectorId', 'capability'],
    ),
    { connectorId: 'paylane-checkout', capability: 'payments.charge' },
  ],
  'POST /api/public/v1/connections': [
    obj({
      connectorId: text(2, 120, 'paylane-checkout'),
      environment: env,
      scopeLabel: text(2, 120, 'Harbour Kitchen'),
      capabilities: { ...arr(text(2, 120, 'payments.charge')), minItems: 1, maxItems: 24 },
    }),
    {
      connectorId: 'paylane-checkout',
      environment: 'sandbox',
      scopeLabel: 'Harbour Kitchen',
      capabilities: ['payments.charge'],
    },
  ],
  'POST /api/public/v1/idempotency-keys': [
    obj({ operation: text(2, 80, 'connection.create') }),
    { operation: 'connection.create' },
  ],
  'POST /api/public/v1/webhooks': [
    obj({
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', minItems: 1, items: { type: 'string', enum: EVENT_NAMES } },
    }),
    { url: 'https://hooks.example/beech', events: ['connection.created'] },
  ],
};

export const keyParam = {
  name: 'Idempotency-Key',
  in: 'header',
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
  example: 'connection.create:3f9a0c7e',
};
export const tenantParam = {
  name: 'x-service-tenant',
  in: 'header',
  required: true,
  schema: str,
  example: 'beech-bakery',
};
const q = (name: string, example: string, schema: unknown = str) => ({
  name,
  in: 'query',
  required: false,
  schema,
  example,
});
export const queries: Record<string, unknown[]> = {
  'GET /api/public/v1/providers': [q('category', 'payments')],
  'GET /api/public/v1/connectors': [
    q('capability', 'payments.charge'),
    q('providerId', 'paylane'),
    q('category', 'payments'),
  ],
  'GET /api/public/v1/stream': [
    q('cursor', '0', { type: 'integer', minimum: 0 }),
    { name: 'Last-Event-ID', in: 'header', required: false, schema: str },
  ],
  'GET /api/public/v1/audit-log': [
    q('limit', '25', { type: 'integer', minimum: 1, maximum: 100 }),
    q('page', '1', { type: 'integer', minimum: 1 }),
    q('per_page', '25', { type: 'integer', minimum: 1, maximum: 100 }),
  ],
  'GET /api/public/v1/webhooks/{webhookId}/deliveries': [
    q('page', '1', { type: 'integer', minimum: 1 }),
    q('per_page', '25', { type: 'integer', minimum: 1, maximum: 100 }),
  ],
};
