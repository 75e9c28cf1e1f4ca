// The route table: one source for the dispatcher, the self-description and the OpenAPI document, as
// Connexion reads every route from the specification (paths relative to the /api/public/v1 base path).
export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** Relative to the base path; `/` is the base path itself. */
  path: string;
  operationId: string;
  purpose: string;
  auth: boolean;
  /** The call needs an Idempotency-Key. */
  key?: boolean;
  /** A JSON request body schema name (components/schemas). */
  body?: string;
}

export const ROUTES: readonly Route[] = [
  { method: 'GET', path: '/', operationId: 'describe', purpose: 'self-description', auth: false },
  { method: 'GET', path: '/openapi.json', operationId: 'openapi', purpose: 'OpenAPI 3.1 document', auth: false },
  {
    method: 'GET',
    path: '/openapi/{version}.json',
    operationId: 'openapi_json_file',
    purpose: 'OpenAPI document of one version as a JSON file',
    auth: false,
  },
  {
    method: 'GET',
    path: '/openapi/{version}.yaml',
    operationId: 'openapi_yaml_file',
    purpose: 'OpenAPI document of one version as a YAML file',
    auth: false,
  },
  { method: 'GET', path: '/info', operationId: 'info', purpose: 'who am I: client, tenant, version', auth: true },
  { method: 'GET', path: '/providers', operationId: 'list_providers', purpose: 'list providers', auth: true },
  { method: 'GET', path: '/connectors', operationId: 'list_connectors', purpose: 'list connectors', auth: true },
  { method: 'GET', path: '/capabilities', operationId: 'list_capabilities', purpose: 'capability catalog', auth: true },
  {
    method: 'POST',
    path: '/capabilities',
    operationId: 'check_capability',
    purpose: 'check a capability of a connector',
    auth: true,
    body: 'CapabilityCheck',
  },
  {
    method: 'GET',
    path: '/connections',
    operationId: 'list_connections',
    purpose: 'connections of the tenant',
    auth: true,
  },
  {
    method: 'POST',
    path: '/connections',
    operationId: 'create_connection',
    purpose: 'create a connection',
    auth: true,
    key: true,
    body: 'ConnectionCreate',
  },
  {
    method: 'GET',
    path: '/connections/{connection_id}',
    operationId: 'get_connection',
    purpose: 'one connection of the tenant',
    auth: true,
  },
  {
    method: 'POST',
    path: '/idempotency-keys',
    operationId: 'create_idempotency_key',
    purpose: 'generate an idempotency key',
    auth: true,
    body: 'IdempotencyKeyCreate',
  },
  { method: 'GET', path: '/stream', operationId: 'stream', purpose: 'status stream (Server-Sent Events)', auth: false },
  {
    method: 'GET',
    path: '/webhooks',
    operationId: 'list_webhooks',
    purpose: 'webhook receivers of the tenant',
    auth: true,
  },
  {
    method: 'POST',
    path: '/webhooks',
    operationId: 'create_webhook',
    purpose: 'create a webhook receiver',
    auth: true,
    key: true,
    body: 'WebhookCreate',
  },
  {
    method: 'GET',
    path: '/webhooks/{webhook_id}',
    operationId: 'get_webhook',
    purpose: 'one webhook receiver',
    auth: true,
  },
  {
    method: 'DELETE',
    path: '/webhooks/{webhook_id}',
    operationId: 'delete_webhook',
    purpose: 'remove a webhook receiver',
    auth: true,
    key: true,
  },
  {
    method: 'GET',
    path: '/webhooks/{webhook_id}/delivery-attempts',
    operationId: 'list_delivery_attempts',
    purpose: 'delivery log of a webhook receiver',
    auth: true,
  },
  {
    method: 'POST',
    path: '/webhooks/{webhook_id}/delivery-attempts/{attempt_id}/requeue',
    operationId: 'requeue_delivery_attempt',
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: true,
  },
  {
    method: 'GET',
    path: '/audit-log',
    operationId: 'list_audit_log',
    purpose: 'audit log with hash chain proof',
    auth: true,
  },
];

/** Matches a concrete relative path against a route's template; returns its path parameters. */
export function match(route: Route, method: string, path: string): Record<string, string> | undefined {
  if (route.method !== method) return undefined;
  const names: string[] = [];
  const source = route.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_, n: string) => {
    names.push(n);
    return '([^/]+?)';
  });
  const m = new RegExp(`^${source}$`).exec(path);
  if (!m) return undefined;
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? '')]));
}
