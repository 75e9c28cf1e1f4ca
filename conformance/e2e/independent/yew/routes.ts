// The route table: the one source of the self-description's routes and of the OpenAPI document's paths.
export interface RouteDef {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  key: 'required' | 'optional' | 'none';
  operationId: string;
  query?: { name: string; schema: Record<string, unknown>; description: string }[];
  body?: string;
  data: Record<string, unknown>;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const list = (field: string, item: string) => ({
  type: 'object',
  required: ['count', field],
  properties: { count: { type: 'integer', minimum: 0 }, [field]: { type: 'array', items: ref(item) } },
});
const free = { type: 'object', additionalProperties: true };

export const BASE = '/api/public/v1';

export const ROUTES: RouteDef[] = [
  {
    method: 'GET',
    path: '/api/public/v1',
    purpose: 'self-description',
    auth: false,
    key: 'none',
    operationId: 'GetServiceDescription',
    data: ref('ServiceDescription'),
  },
  {
    method: 'GET',
    path: '/api/public/v1/openapi.json',
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    key: 'none',
    operationId: 'GetOpenApiDocument',
    data: free,
  },
  {
    method: 'GET',
    path: '/api/public/v1/info',
    purpose: 'the calling access: tenant, client, environment, token expiry',
    auth: true,
    key: 'none',
    operationId: 'GetInfo',
    data: free,
  },
  {
    method: 'GET',
    path: '/api/public/v1/providers',
    purpose: 'list providers',
    auth: true,
    key: 'none',
    operationId: 'ListProviders',
    query: [{ name: 'category', schema: { type: 'string' }, description: 'restricts to one category' }],
    data: list('providers', 'Provider'),
  },
  {
    method: 'GET',
    path: '/api/public/v1/connectors',
    purpose: 'list connectors',
    auth: true,
    key: 'none',
    operationId: 'ListConnectors',
    query: [
      { name: 'capability', schema: { type: 'string' }, description: 'connectors offering this capability' },
      { name: 'providerId', schema: { type: 'string' }, description: 'connectors of this provider' },
      { name: 'category', schema: { type: 'string' }, description: 'connectors of this category' },
    ],
    data: list('connectors', 'Connector'),
  },
  {
    method: 'GET',
    path: '/api/public/v1/capabilities',
    purpose: 'capability catalog',
    auth: true,
    key: 'none',
    operationId: 'ListCapabilities',
    data: list('capabilities', 'Capability'),
  },
  {
    method: 'POST',
    path: '/api/public/v1/capabilities',
    purpose: 'check a capability of a connector',
    auth: true,
    key: 'optional',
    operationId: 'CheckCapability',
    body: 'CapabilityCheckRequest',
    data: ref('CapabilityCheckResult'),
  },
  {
    method: 'GET',
    path: '/api/public/v1/connections',
    purpose: 'connections of the tenant',
    auth: true,
    key: 'none',
    operationId: 'ListConnections',
    data: {
      type: 'object',
      required: ['tenant', 'count', 'connections'],
      properties: {
        tenant: { type: 'string' },
        count: { type: 'integer' },
        connections: { type: 'array', items: ref('Connection') },
      },
    },
  },
  {
    method: 'POST',
    path: '/api/public/v1/connections',
    purpose: 'create a connection',
    auth: true,
    key: 'required',
    operationId: 'CreateConnection',
    body: 'CreateConnectionRequest',
    data: ref('Connection'),
  },
  {
    method: 'GET',
    path: '/api/public/v1/connections/{connectionId}',
    purpose: 'one connection of the tenant',
    auth: true,
    key: 'none',
    operationId: 'GetConnection',
    data: ref('Connection'),
  },
  {
    method: 'POST',
    path: '/api/public/v1/idempotency-keys',
    purpose: 'generate an idempotency key',
    auth: true,
    key: 'optional',
    operationId: 'CreateIdempotencyKey',
    body: 'CreateIdempotencyKeyRequest',
    data: ref('IdempotencyKeyResult'),
  },
  {
    method: 'GET',
    path: '/api/public/v1/stream',
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    key: 'none',
    operationId: 'GetStatusStream',
    query: [
      {
        name: 'cursor',
        schema: { type: 'integer', minimum: 0 },
        description: 'last number read (Last-Event-ID wins when both are sent)',
      },
    ],
    data: free,
  },
  {
    method: 'POST',
    path: '/api/public/v1/webhooks',
    purpose: 'create a webhook receiver',
    auth: true,
    key: 'required',
    operationId: 'CreateWebhook',
    body: 'CreateWebhookRequest',
    data: ref('WebhookCreated'),
  },
  {
    method: 'GET',
    path: '/api/public/v1/webhooks',
    purpose: 'webhook receivers of the tenant',
    auth: true,
    key: 'none',
    operationId: 'ListWebhooks',
    data: list('webhooks', 'Webhook'),
  },
  {
    method: 'GET',
    path: '/api/public/v1/webhooks/{webhookId}',
    purpose: 'one webhook receiver',
    auth: true,
    key: 'none',
    operationId: 'GetWebhook',
    data: ref('Webhook'),
  },
  {
    method: 'DELETE',
    path: '/api/public/v1/webhooks/{webhookId}',
    purpose: 'remove a webhook receiver',
    auth: true,
    key: 'required',
    operationId: 'DeleteWebhook',
    data: free,
  },
  {
    method: 'GET',
    path: '/api/public/v1/webhooks/{webhookId}/deliveries',
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    key: 'none',
    operationId: 'ListWebhookDeliveries',
    query: [
      { name: '$top', schema: { type: 'integer', minimum: 1, maximum: 200 }, description: 'page size' },
      { name: '$skip', schema: { type: 'integer', minimum: 0, default: 0 }, description: 'entries to skip' },
    ],
    data: ref('DeliveryPage'),
  },
  {
    method: 'POST',
    path: '/api/public/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: 'required',
    operationId: 'RetryWebhookDelivery',
    data: ref('Delivery'),
  },
  {
    method: 'GET',
    path: '/api/public/v1/audit-log',
    purpose: 'audit log with a proof of integrity',
    auth: true,
    key: 'none',
    operationId: 'GetAuditLog',
    query: [
      {
        name: 'limit',
        schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
        description: 'number of entries',
      },
      { name: '$skiptoken', schema: { type: 'string' }, description: 'continuation from @odata.nextLink' },
    ],
    data: ref('AuditPage'),
  },
];

/** The RouteInfo list of the self-description. */
export function routeInfos() {
  return ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth }));
}
