// The route table: one row per operation. The router, the self-description's `routes` and the OpenAPI
// document are all generated from it, so what is served and what is published cannot drift apart.
export interface Param {
  name: string;
  in: 'query' | 'path' | 'header';
  schema: Record<string, unknown>;
  required?: boolean;
  description?: string;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  operationId: string;
  purpose: string;
  auth: boolean;
  key?: boolean;
  tag: string;
  request?: string;
  /** pydantic model of `data` (wrapped as SuccessEnvelope_<Model>_), or a raw content type. */
  response: string;
  params?: Param[];
}

const str = { type: 'string' };

export const ROUTES: Route[] = [
  {
    method: 'GET',
    path: '/api/public/v1',
    operationId: 'describe',
    purpose: 'self-description',
    auth: false,
    tag: 'meta',
    response: 'SelfDescription',
  },
  {
    method: 'GET',
    path: '/api/public/v1/openapi.json',
    operationId: 'openapi_json',
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    tag: 'meta',
    response: 'raw:application/json',
  },
  {
    method: 'GET',
    path: '/api/public/v1/docs/openapi.json',
    operationId: 'openapi_json_download',
    purpose: 'OpenAPI 3.1 document as a JSON file',
    auth: false,
    tag: 'meta',
    response: 'raw:application/json',
  },
  {
    method: 'GET',
    path: '/api/public/v1/docs/openapi.yaml',
    operationId: 'openapi_yaml_download',
    purpose: 'OpenAPI 3.1 document as a YAML file',
    auth: false,
    tag: 'meta',
    response: 'raw:application/yaml',
  },
  {
    method: 'GET',
    path: '/api/public/v1/info',
    operationId: 'info',
    purpose: 'who is calling: client, tenant, environment, token expiry',
    auth: true,
    tag: 'meta',
    response: 'InfoRead',
  },
  {
    method: 'GET',
    path: '/api/public/v1/providers',
    operationId: 'list_providers',
    purpose: 'list providers',
    auth: true,
    tag: 'catalog',
    response: 'ProviderList',
    params: [{ name: 'category', in: 'query', schema: str }],
  },
  {
    method: 'GET',
    path: '/api/public/v1/connectors',
    operationId: 'list_connectors',
    purpose: 'list connectors',
    auth: true,
    tag: 'catalog',
    response: 'ConnectorList',
    params: [
      { name: 'capability', in: 'query', schema: str },
      { name: 'providerId', in: 'query', schema: str },
      { name: 'category', in: 'query', schema: str },
    ],
  },
  {
    method: 'GET',
    path: '/api/public/v1/capabilities',
    operationId: 'list_capabilities',
    purpose: 'capability catalog',
    auth: true,
    tag: 'catalog',
    response: 'CapabilityList',
  },
  {
    method: 'POST',
    path: '/api/public/v1/capabilities',
    operationId: 'check_capability',
    purpose: 'check a capability of a connector',
    auth: true,
    tag: 'catalog',
    request: 'CapabilityCheck',
    response: 'CapabilityCheckResult',
  },
  {
    method: 'GET',
    path: '/api/public/v1/connections',
    operationId: 'list_connections',
    purpose: 'connections of the tenant',
    auth: true,
    tag: 'connections',
    response: 'ConnectionList',
  },
  {
    method: 'POST',
    path: '/api/public/v1/connections',
    operationId: 'create_connection',
    purpose: 'create a connection',
    auth: true,
    key: true,
    tag: 'connections',
    request: 'ConnectionCreate',
    response: 'ConnectionRead',
  },
  {
    method: 'POST',
    path: '/api/public/v1/idempotency-keys',
    operationId: 'create_idempotency_key',
    purpose: 'generate an idempotency key',
    auth: true,
    tag: 'idempotency',
    request: 'IdempotencyKeyCreate',
    response: 'IdempotencyKeyRead',
  },
  {
    method: 'GET',
    path: '/api/public/v1/stream',
    operationId: 'stream',
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    tag: 'events',
    response: 'raw:text/event-stream',
    params: [
      { name: 'cursor', in: 'query', schema: { type: 'integer', minimum: 0 }, description: 'last number read' },
      { name: 'Last-Event-ID', in: 'header', schema: str, description: 'last number read (wins over cursor)' },
    ],
  },
  {
    method: 'GET',
    path: '/api/public/v1/webhooks',
    operationId: 'list_webhooks',
    purpose: 'webhook receivers of the tenant',
    auth: true,
    tag: 'webhooks',
    response: 'WebhookList',
  },
  {
    method: 'POST',
    path: '/api/public/v1/webhooks',
    operationId: 'create_webhook',
    purpose: 'create a webhook receiver',
    auth: true,
    key: true,
    tag: 'webhooks',
    request: 'WebhookCreate',
    response: 'WebhookCreated',
  },
  {
    method: 'GET',
    path: '/api/public/v1/webhooks/{webhook_id}',
    operationId: 'read_webhook',
    purpose: 'one webhook receiver',
    auth: true,
    tag: 'webhooks',
    response: 'WebhookRead',
  },
  {
    method: 'DELETE',
    path: '/api/public/v1/webhooks/{webhook_id}',
    operationId: 'delete_webhook',
    purpose: 'remove a webhook receiver',
    auth: true,
    key: true,
    tag: 'webhooks',
    response: 'WebhookDeleted',
  },
  {
    method: 'GET',
    path: '/api/public/v1/webhooks/{webhook_id}/logs',
    operationId: 'list_webhook_logs',
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    tag: 'webhooks',
    response: 'DeliveryLogPage',
  },
  {
    method: 'POST',
    path: '/api/public/v1/webhooks/{webhook_id}/logs/{log_id}/resend',
    operationId: 'resend_webhook_log',
    purpose: 'trigger one logged delivery again',
    auth: true,
    key: true,
    tag: 'webhooks',
    response: 'DeliveryLogEntry',
  },
  {
    method: 'GET',
    path: '/api/public/v1/audit-log',
    operationId: 'read_audit_log',
    purpose: 'audit log with hash-chain proof',
    auth: true,
    tag: 'audit',
    response: 'AuditPage',
    params: [
      { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 } },
      {
        name: 'cursor',
        in: 'query',
        schema: { type: 'integer', minimum: 1 },
        description: 'entries with seq below this (next_cursor of the previous page)',
      },
    ],
  },
];
