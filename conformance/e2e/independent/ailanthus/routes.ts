// The route table, written once: the router matches it, the self-description lists it and the OpenAPI
// document is generated from it (as Helidon's OpenAPI support reads the routing's annotations).
import { BASE } from './http.ts';

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** Relative to the base path, OpenAPI template syntax. */
  path: string;
  purpose: string;
  auth: boolean;
  /** A modifying call: Idempotency-Key required. */
  key?: boolean;
  /** The schema of data (a components name) or an inline description. */
  data: string;
  /** Request body schema (a components name). */
  body?: string;
  query?: string[];
}

export const ROUTES: Route[] = [
  { method: 'GET', path: '', purpose: 'self-description', auth: false, data: 'SelfDescription' },
  { method: 'GET', path: '/openapi.json', purpose: 'OpenAPI 3.1 document', auth: false, data: 'raw' },
  {
    method: 'GET',
    path: '/openapi/{version}.json',
    purpose: 'OpenAPI document of one version (JSON file)',
    auth: false,
    data: 'raw',
  },
  {
    method: 'GET',
    path: '/openapi/{version}.yaml',
    purpose: 'OpenAPI document of one version (YAML file)',
    auth: false,
    data: 'raw',
  },
  { method: 'GET', path: '/info', purpose: 'service information for a first call', auth: true, data: 'Info' },
  {
    method: 'GET',
    path: '/providers',
    purpose: 'list providers',
    auth: true,
    data: 'ProviderList',
    query: ['category'],
  },
  {
    method: 'GET',
    path: '/connectors',
    purpose: 'list connectors',
    auth: true,
    data: 'ConnectorList',
    query: ['capability', 'providerId', 'category'],
  },
  { method: 'GET', path: '/capabilities', purpose: 'capability catalog', auth: true, data: 'CapabilityList' },
  {
    method: 'POST',
    path: '/capabilities',
    purpose: 'check a capability of a connector',
    auth: true,
    data: 'CapabilityCheckResult',
    body: 'CapabilityCheck',
  },
  { method: 'GET', path: '/connections', purpose: 'connections of the tenant', auth: true, data: 'ConnectionList' },
  {
    method: 'POST',
    path: '/connections',
    purpose: 'create a connection',
    auth: true,
    key: true,
    data: 'Connection',
    body: 'ConnectionCreate',
  },
  { method: 'GET', path: '/connections/{connectionId}', purpose: 'one connection', auth: true, data: 'Connection' },
  {
    method: 'POST',
    path: '/idempotency-keys',
    purpose: 'generate an idempotency key',
    auth: true,
    data: 'IdempotencyKeyResult',
    body: 'IdempotencyKeyRequest',
  },
  { method: 'GET', path: '/stream', purpose: 'status stream (Server-Sent Events)', auth: false, data: 'sse' },
  {
    method: 'POST',
    path: '/webhooks',
    purpose: 'create a webhook receiver',
    auth: true,
    key: true,
    data: 'WebhookCreated',
    body: 'WebhookCreate',
  },
  { method: 'GET', path: '/webhooks', purpose: 'webhook receivers of the tenant', auth: true, data: 'WebhookList' },
  { method: 'GET', path: '/webhooks/{webhookId}', purpose: 'one webhook receiver', auth: true, data: 'Webhook' },
  {
    method: 'DELETE',
    path: '/webhooks/{webhookId}',
    purpose: 'remove a webhook receiver',
    auth: true,
    key: true,
    data: 'Webhook',
  },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}/delivery-attempts',
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    data: 'DeliveryPage',
    query: ['limit', 'offset'],
  },
  {
    method: 'POST',
    path: '/webhooks/{webhookId}/delivery-attempts/{deliveryId}/retry',
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: true,
    data: 'Delivery',
  },
  {
    method: 'GET',
    path: '/audit-log',
    purpose: 'audit log with row-hash chain',
    auth: true,
    data: 'AuditPage',
    query: ['limit', 'offset'],
  },
];

/** Matches a method and full path to a route and its path parameters. */
export function match(method: string, pathname: string): { route: Route; params: Record<string, string> } | undefined {
  if (!pathname.startsWith(BASE)) return undefined;
  const rest = pathname.slice(BASE.length).replace(/\/$/, '');
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const names: string[] = [];
    const re = new RegExp(
      `^${route.path.replace(/\./g, '\\.').replace(/\{(\w+)\}/g, (_m, n: string) => {
        names.push(n);
        return '([^/]+)';
      })}$`,
    );
    const m = re.exec(rest);
    if (!m) continue;
    const params: Record<string, string> = {};
    names.forEach((n, i) => {
      params[n] = decodeURIComponent(m[i + 1] ?? '');
    });
    return { route, params };
  }
  return undefined;
}
