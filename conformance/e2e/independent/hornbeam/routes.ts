// The route table: what the server dispatches, the self-description lists and openapi.json documents.
export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** OpenAPI template under /api/public/v1 ('' is the base). */
  path: string;
  purpose: string;
  auth: boolean;
  /** Idempotency-Key required ("yes + key"). */
  key: boolean;
  id: string;
}

export const BASE = '/api/public/v1';

export const ROUTES: Route[] = [
  { method: 'GET', path: '', purpose: 'self-description', auth: false, key: false, id: 'describe' },
  { method: 'GET', path: '/openapi.json', purpose: 'OpenAPI 3.1 document', auth: false, key: false, id: 'openapiJson' },
  {
    method: 'GET',
    path: '/openapi.yaml',
    purpose: 'OpenAPI 3.1 document as YAML',
    auth: false,
    key: false,
    id: 'openapiYaml',
  },
  {
    method: 'GET',
    path: '/info',
    purpose: 'who is calling: tenant, client, environment',
    auth: true,
    key: false,
    id: 'info',
  },
  { method: 'GET', path: '/providers', purpose: 'list providers', auth: true, key: false, id: 'listProviders' },
  { method: 'GET', path: '/connectors', purpose: 'list connectors', auth: true, key: false, id: 'listConnectors' },
  {
    method: 'GET',
    path: '/capabilities',
    purpose: 'capability catalog',
    auth: true,
    key: false,
    id: 'listCapabilities',
  },
  {
    method: 'POST',
    path: '/capabilities',
    purpose: 'check a capability of a connector',
    auth: true,
    key: false,
    id: 'checkCapability',
  },
  {
    method: 'GET',
    path: '/connections',
    purpose: 'connections of the tenant',
    auth: true,
    key: false,
    id: 'listConnections',
  },
  {
    method: 'POST',
    path: '/connections',
    purpose: 'create a connection',
    auth: true,
    key: true,
    id: 'createConnection',
  },
  {
    method: 'POST',
    path: '/idempotency-keys',
    purpose: 'generate an idempotency key',
    auth: true,
    key: false,
    id: 'issueIdempotencyKey',
  },
  {
    method: 'GET',
    path: '/stream',
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    key: false,
    id: 'stream',
  },
  {
    method: 'POST',
    path: '/webhooks',
    purpose: 'create a webhook receiver',
    auth: true,
    key: true,
    id: 'createWebhook',
  },
  {
    method: 'GET',
    path: '/webhooks',
    purpose: 'webhook receivers of the tenant',
    auth: true,
    key: false,
    id: 'listWebhooks',
  },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}',
    purpose: 'one webhook receiver',
    auth: true,
    key: false,
    id: 'getWebhook',
  },
  {
    method: 'DELETE',
    path: '/webhooks/{webhookId}',
    purpose: 'remove a webhook receiver',
    auth: true,
    key: true,
    id: 'deleteWebhook',
  },
  {
    method: 'GET',
    path: '/webhook-deliveries',
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    key: false,
    id: 'listDeliveries',
  },
  {
    method: 'POST',
    path: '/webhook-deliveries/{deliveryId}/retrigger',
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: true,
    id: 'retriggerDelivery',
  },
  {
    method: 'GET',
    path: '/audit-log',
    purpose: 'audit log with Merkle inclusion proofs',
    auth: true,
    key: false,
    id: 'auditLog',
  },
];

/** The route and its path parameters for a method and path, or null. */
export function match(method: string, path: string): { route: Route; params: Record<string, string> } | null {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const names: string[] = [];
    const re = new RegExp(
      `^${(BASE + route.path).replace(/\{(\w+)\}/g, (_m, n: string) => {
        names.push(n);
        return '([^/]+)';
      })}$`,
    );
    const m = re.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    names.forEach((n, i) => {
      params[n] = decodeURIComponent(m[i + 1] ?? '');
    });
    return { route, params };
  }
  return null;
}
