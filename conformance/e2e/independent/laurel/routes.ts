// The route table: one list drives the dispatcher, the self-description and the OpenAPI document,
// so what is served and what is described cannot drift apart.
export interface Param {
  name: string;
  in: 'query' | 'header' | 'path';
  schema: Record<string, unknown>;
  required?: boolean;
  description?: string;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  operationId: string;
  purpose: string;
  /** public: no credentials; yes: bearer + tenant; key: bearer + tenant + Idempotency-Key. */
  auth: 'public' | 'yes' | 'key';
  params?: Param[];
  body?: string;
  /** Component schema of `data`, or a raw media type for documents and the stream. */
  data?: string;
  raw?: string;
  tag: string;
}

const P = '/api/public/v1';
const text = (name: string, description: string): Param => ({
  name,
  in: 'query',
  schema: { type: 'string' },
  description,
});

export const ROUTES: Route[] = [
  {
    method: 'GET',
    path: P,
    operationId: 'getSelfDescription',
    purpose: 'self-description',
    auth: 'public',
    data: 'SelfDescription',
    tag: 'meta',
  },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    operationId: 'getOpenApiJson',
    purpose: 'OpenAPI 3.1 document (JSON)',
    auth: 'public',
    raw: 'application/json',
    tag: 'meta',
  },
  {
    method: 'GET',
    path: `${P}/openapi.yaml`,
    operationId: 'getOpenApiYaml',
    purpose: 'OpenAPI 3.1 document (YAML)',
    auth: 'public',
    raw: 'application/yaml',
    tag: 'meta',
  },
  {
    method: 'GET',
    path: `${P}/openapi/{file}`,
    operationId: 'getVersionedOpenApi',
    purpose: 'OpenAPI document of one version as a download (JSON or YAML)',
    auth: 'public',
    params: [
      {
        name: 'file',
        in: 'path',
        required: true,
        schema: {
          type: 'string',
          enum: ['v2026-07-01.json', 'v2026-07-01.yaml', 'v2026-06-12.json', 'v2026-06-12.yaml'],
        },
      },
    ],
    raw: 'application/json|application/yaml',
    tag: 'meta',
  },
  {
    method: 'GET',
    path: `${P}/info`,
    operationId: 'getInfo',
    purpose: 'service summary for the calling access',
    auth: 'yes',
    data: 'Info',
    tag: 'meta',
  },
  {
    method: 'GET',
    path: `${P}/providers`,
    operationId: 'listProviders',
    purpose: 'list providers',
    auth: 'yes',
    params: [text('category', 'restricts to one category')],
    data: 'ProviderList',
    tag: 'catalog',
  },
  {
    method: 'GET',
    path: `${P}/connectors`,
    operationId: 'listConnectors',
    purpose: 'list connectors',
    auth: 'yes',
    params: [
      text('capability', 'connectors offering this capability'),
      text('providerId', 'connectors of this provider'),
      text('category', 'connectors of this category'),
    ],
    data: 'ConnectorList',
    tag: 'catalog',
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    operationId: 'listCapabilities',
    purpose: 'capability catalog',
    auth: 'yes',
    data: 'CapabilityList',
    tag: 'catalog',
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    operationId: 'checkCapability',
    purpose: 'check a capability of a connector',
    auth: 'yes',
    body: 'CapabilityCheck',
    data: 'CapabilityCheckResult',
    tag: 'catalog',
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    operationId: 'listConnections',
    purpose: 'connections of the tenant',
    auth: 'yes',
    data: 'ConnectionList',
    tag: 'connections',
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    operationId: 'createConnection',
    purpose: 'create a connection',
    auth: 'key',
    body: 'ConnectionCreate',
    data: 'Connection',
    tag: 'connections',
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    operationId: 'createIdempotencyKey',
    purpose: 'generate an idempotency key',
    auth: 'yes',
    body: 'IdempotencyKeyRequest',
    data: 'IdempotencyKeyResult',
    tag: 'connections',
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    operationId: 'getStatusStream',
    purpose: 'status stream (Server-Sent Events)',
    auth: 'public',
    params: [
      { name: 'cursor', in: 'query', schema: { type: 'integer', minimum: 0 }, description: 'last number read' },
      {
        name: 'Last-Event-ID',
        in: 'header',
        schema: { type: 'string' },
        description: 'last number read (wins over cursor)',
      },
    ],
    raw: 'text/event-stream',
    tag: 'events',
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    operationId: 'createWebhook',
    purpose: 'create a webhook receiver',
    auth: 'key',
    body: 'WebhookCreate',
    data: 'WebhookCreated',
    tag: 'webhooks',
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    operationId: 'deleteWebhook',
    purpose: 'remove a webhook receiver',
    auth: 'key',
    params: [{ name: 'webhookId', in: 'path', required: true, schema: { type: 'string' } }],
    data: 'WebhookDeleted',
    tag: 'webhooks',
  },
  {
    method: 'GET',
    path: `${P}/webhook-deliveries`,
    operationId: 'listWebhookDeliveries',
    purpose: 'delivery log of one webhook receiver',
    auth: 'yes',
    params: [
      { name: 'webhookId', in: 'query', required: true, schema: { type: 'string' }, description: 'the receiver' },
    ],
    data: 'DeliveryList',
    tag: 'webhooks',
  },
  {
    method: 'POST',
    path: `${P}/webhook-deliveries/{deliveryId}/redeliver`,
    operationId: 'redeliverWebhookDelivery',
    purpose: 'trigger one logged delivery again',
    auth: 'key',
    params: [{ name: 'deliveryId', in: 'path', required: true, schema: { type: 'string' } }],
    data: 'Delivery',
    tag: 'webhooks',
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    operationId: 'getAuditLog',
    purpose: 'audit log of the tenant with a proof of integrity',
    auth: 'yes',
    params: [
      {
        name: 'limit',
        in: 'query',
        schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
        description: 'entries per page',
      },
      { name: 'cursor', in: 'query', schema: { type: 'string' }, description: 'next_cursor of the previous page' },
    ],
    data: 'AuditPage',
    tag: 'audit',
  },
  {
    method: 'GET',
    path: `${P}/audit-log/key`,
    operationId: 'getAuditLogKey',
    purpose: 'public key (JWK) that verifies the audit proof',
    auth: 'public',
    data: 'AuditKeys',
    tag: 'audit',
  },
];
