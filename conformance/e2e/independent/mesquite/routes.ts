// The route table of `service /api/public/v1`: one row per resource function, read by the router, the
// self-description and the OpenAPI document alike, so the three never disagree.
export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** Relative to the service's base path /api/public/v1 ('' is the base itself). */
  path: string;
  purpose: string;
  auth: boolean;
  /** Idempotency-Key: required, optional, or not read. */
  key?: 'required' | 'optional';
  /** Component schema of `data` (absent: not JSON). */
  data?: string;
  body?: string;
  query?: string[];
  /** First version offering the route. */
  since?: string;
  operationId: string;
}

export const BASE = '/api/public/v1';

export const ROUTES: Route[] = [
  {
    method: 'GET',
    path: '',
    purpose: 'self-description',
    auth: false,
    data: 'SelfDescription',
    operationId: 'getServiceDescription',
  },
  { method: 'GET', path: '/openapi.json', purpose: 'OpenAPI 3.1 document', auth: false, operationId: 'getOpenApi' },
  {
    method: 'GET',
    path: '/openapi/{version}.json',
    purpose: 'OpenAPI document of a version, as a JSON file',
    auth: false,
    operationId: 'downloadOpenApiJson',
  },
  {
    method: 'GET',
    path: '/openapi/{version}.yaml',
    purpose: 'OpenAPI document of a version, as a YAML file',
    auth: false,
    operationId: 'downloadOpenApiYaml',
  },
  {
    method: 'GET',
    path: '/info',
    purpose: 'who is calling: client, tenant, version',
    auth: true,
    data: 'Info',
    operationId: 'getInfo',
  },
  {
    method: 'GET',
    path: '/providers',
    purpose: 'list providers',
    auth: true,
    data: 'ProviderList',
    query: ['category'],
    operationId: 'getProviders',
  },
  {
    method: 'GET',
    path: '/connectors',
    purpose: 'list connectors',
    auth: true,
    data: 'ConnectorList',
    query: ['capability', 'providerId', 'category'],
    operationId: 'getConnectors',
  },
  {
    method: 'GET',
    path: '/capabilities',
    purpose: 'capability catalog',
    auth: true,
    data: 'CapabilityList',
    operationId: 'getCapabilities',
  },
  {
    method: 'POST',
    path: '/capabilities',
    purpose: 'check a capability of a connector',
    auth: true,
    data: 'Decision',
    body: 'CapabilityCheck',
    operationId: 'postCapabilities',
  },
  {
    method: 'GET',
    path: '/connections',
    purpose: 'connections of the tenant',
    auth: true,
    data: 'ConnectionList',
    operationId: 'getConnections',
  },
  {
    method: 'POST',
    path: '/connections',
    purpose: 'create a connection',
    auth: true,
    key: 'required',
    data: 'Connection',
    body: 'ConnectionCreate',
    operationId: 'postConnections',
  },
  {
    method: 'POST',
    path: '/idempotency-keys',
    purpose: 'generate an idempotency key',
    auth: true,
    data: 'IdempotencyKeyResult',
    body: 'IdempotencyKeyCreate',
    operationId: 'postIdempotencyKeys',
  },
  {
    method: 'GET',
    path: '/stream',
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    operationId: 'getStream',
  },
  {
    method: 'GET',
    path: '/webhooks',
    purpose: 'webhook receivers of the tenant',
    auth: true,
    data: 'WebhookList',
    operationId: 'getWebhooks',
  },
  {
    method: 'POST',
    path: '/webhooks',
    purpose: 'create a webhook receiver',
    auth: true,
    key: 'required',
    data: 'Webhook',
    body: 'WebhookCreate',
    operationId: 'postWebhooks',
  },
  {
    method: 'DELETE',
    path: '/webhooks/{webhookId}',
    purpose: 'remove a webhook receiver',
    auth: true,
    key: 'optional',
    data: 'Webhook',
    operationId: 'deleteWebhook',
  },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}/delivery-attempts',
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    data: 'DeliveryAttemptList',
    since: '2026-07-01',
    operationId: 'getDeliveryAttempts',
  },
  {
    method: 'POST',
    path: '/webhooks/{webhookId}/delivery-attempts/{attemptId}/retry',
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: 'required',
    data: 'DeliveryAttempt',
    since: '2026-07-01',
    operationId: 'retryDeliveryAttempt',
  },
  {
    method: 'GET',
    path: '/audit-log',
    purpose: 'audit log of the tenant with its hash chain',
    auth: true,
    data: 'AuditPage',
    query: ['limit', 'offset'],
    operationId: 'getAuditLog',
  },
];

/** Matches a request path against a route's template; the captured parameters in order, or undefined. */
export function match(route: Route, path: string): string[] | undefined {
  const pattern = `^${BASE}${route.path.replace(/\{[^}]+\}/g, '([^/]+)').replaceAll('.', '\\.')}$`;
  const m = new RegExp(pattern).exec(path);
  return m ? m.slice(1).map(decodeURIComponent) : undefined;
}
