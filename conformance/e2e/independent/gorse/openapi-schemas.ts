// Schemas and the table of served operations from which openapi.ts builds the self-description and
// the OpenAPI 3.1 document (one table, so the document matches what is served).

export const P = '/api/public/v1';
const S = (minLength: number, maxLength: number) => ({ type: 'string', minLength, maxLength });
const ENV = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };
export const KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
};
const ID = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const Q = (name: string, schema: unknown = { type: 'string' }) => ({ name, in: 'query', required: false, schema });
export const OBJ = { type: 'object', additionalProperties: true };

export interface Op {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  key?: 'required' | 'optional';
  params?: unknown[];
  body?: unknown;
  data?: unknown;
}

const CAP_ENTRY = {
  type: 'object',
  required: ['capability', 'critical', 'idempotencyRequired'],
  properties: {
    capability: { type: 'string' },
    critical: { type: 'boolean' },
    idempotencyRequired: { type: 'boolean' },
  },
};
const CONNECTION = {
  type: 'object',
  required: ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  properties: {
    id: { type: 'string', pattern: '^conn_[0-9A-Z]{26}$' },
    connectorId: { type: 'string' },
    environment: ENV,
    scopeLabel: { type: 'string' },
    state: { type: 'string', enum: ['provisioning', 'live', 'suspended'] },
    capabilities: { type: 'array', items: CAP_ENTRY },
    nextStep: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
  },
};

const LIST = (name: string, item: unknown) => ({
  type: 'object',
  required: ['count', name],
  properties: { count: { type: 'integer', minimum: 0 }, [name]: { type: 'array', items: item } },
});
const REC = (fields: Record<string, unknown>) => ({
  type: 'object',
  required: Object.keys(fields),
  properties: fields,
});
const STR = { type: 'string' };
const BOOL = { type: 'boolean' };
const PROVIDER = REC({ id: STR, name: STR, category: STR, summary: STR });
const CONNECTOR = REC({
  id: STR,
  providerId: STR,
  name: STR,
  category: STR,
  capabilities: { type: 'array', items: STR },
});
const CAPABILITY = REC({ id: STR, label: STR, critical: BOOL, idempotencyRequired: BOOL });
const DECISION = REC({
  connectorId: STR,
  capability: STR,
  allowed: BOOL,
  critical: BOOL,
  idempotencyRequired: BOOL,
  reason: STR,
});

export const OPS: Op[] = [
  {
    method: 'GET',
    path: P,
    purpose: 'self-description',
    auth: false,
    data: REC({
      service: STR,
      surface: STR,
      version: STR,
      authentication: OBJ,
      idempotency: OBJ,
      routes: { type: 'array', items: REC({ method: STR, path: STR, purpose: STR, auth: BOOL }) },
    }),
  },
  { method: 'GET', path: `${P}/openapi.json`, purpose: 'OpenAPI 3.1 document', auth: false },
  {
    method: 'GET',
    path: `${P}/providers`,
    purpose: 'list providers',
    auth: true,
    params: [Q('category')],
    data: LIST('providers', PROVIDER),
  },
  {
    method: 'GET',
    path: `${P}/connectors`,
    purpose: 'list connectors',
    auth: true,
    params: [Q('capability'), Q('providerId'), Q('category')],
    data: LIST('connectors', CONNECTOR),
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    data: LIST('capabilities', CAPABILITY),
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    key: 'optional',
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['connectorId', 'capability'],
      properties: { connectorId: S(2, 120), capability: S(2, 120), environment: { ...ENV, default: 'sandbox' } },
    },
    data: REC({ decision: DECISION, environment: ENV }),
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    data: {
      ...LIST('connections', CONNECTION),
      required: ['tenant', 'count', 'connections'],
      properties: { tenant: STR, ...LIST('connections', CONNECTION).properties },
    },
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: 'required',
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
      properties: {
        connectorId: S(2, 120),
        environment: ENV,
        scopeLabel: S(2, 120),
        capabilities: { type: 'array', minItems: 1, maxItems: 24, items: S(2, 120) },
      },
    },
    data: CONNECTION,
  },
  {
    method: 'GET',
    path: `${P}/connections/{connectionId}`,
    purpose: 'one connection of the tenant',
    auth: true,
    params: [ID('connectionId')],
    data: CONNECTION,
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    key: 'optional',
    body: { type: 'object', additionalProperties: false, required: ['operation'], properties: { operation: S(2, 80) } },
    data: REC({ idempotencyKey: STR, operation: STR, expiresAt: { type: 'string', format: 'date-time' } }),
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    params: [
      Q('cursor', { type: 'integer', minimum: 0 }),
      { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } },
    ],
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    key: 'required',
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['url', 'events'],
      properties: {
        url: { type: 'string', format: 'uri' },
        events: {
          type: 'array',
          minItems: 1,
          maxItems: 20,
          items: {
            type: 'string',
            enum: ['connection.created', 'connection.live', 'connection.suspended', 'order.created', 'order.paid'],
          },
        },
      },
    },
    data: {
      type: 'object',
      required: ['id', 'url', 'events', 'hmacSecret'],
      properties: {
        id: { type: 'string' },
        url: { type: 'string' },
        events: { type: 'array', items: { type: 'string' } },
        hmacSecret: { type: 'string', description: 'signing key, shown in this answer only' },
      },
    },
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: 'required',
    params: [ID('webhookId')],
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/delivery-attempts`,
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    params: [ID('webhookId')],
  },
  {
    method: 'POST',
    path: `${P}/webhook-deliveries/{deliveryId}/resend`,
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: 'required',
    params: [ID('deliveryId')],
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log with hash-chain proof',
    auth: true,
    params: [Q('limit', { type: 'integer', minimum: 1, maximum: 200, default: 50 }), Q('cursor')],
  },
  { method: 'GET', path: `${P}/info`, purpose: 'who am I: tenant, client, environment', auth: true },
];
