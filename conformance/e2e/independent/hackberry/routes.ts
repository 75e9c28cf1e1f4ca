// The route table: what the self-description lists and the OpenAPI document is built from, in the order of
// the team's `Dream.router` (paths with Dream's `:param` written as OpenAPI `{param}`).
import { BASE } from './http.ts';

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  key?: boolean;
  id: string;
}

export const ROUTES: Route[] = [
  { method: 'GET', path: BASE, purpose: 'self-description', auth: false, id: 'describe' },
  { method: 'GET', path: `${BASE}/openapi.json`, purpose: 'OpenAPI 3.1 document', auth: false, id: 'openapi' },
  {
    method: 'GET',
    path: `${BASE}/openapi/{version}.json`,
    purpose: 'OpenAPI 3.1 document of one version, JSON file',
    auth: false,
    id: 'openapiJsonFile',
  },
  {
    method: 'GET',
    path: `${BASE}/openapi/{version}.yaml`,
    purpose: 'OpenAPI 3.1 document of one version, YAML file',
    auth: false,
    id: 'openapiYamlFile',
  },
  { method: 'GET', path: `${BASE}/info`, purpose: 'who is calling: client, tenant, version', auth: true, id: 'info' },
  { method: 'GET', path: `${BASE}/providers`, purpose: 'list providers', auth: true, id: 'listProviders' },
  { method: 'GET', path: `${BASE}/connectors`, purpose: 'list connectors', auth: true, id: 'listConnectors' },
  { method: 'GET', path: `${BASE}/capabilities`, purpose: 'capability catalog', auth: true, id: 'listCapabilities' },
  {
    method: 'POST',
    path: `${BASE}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    id: 'checkCapability',
  },
  {
    method: 'GET',
    path: `${BASE}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    id: 'listConnections',
  },
  {
    method: 'POST',
    path: `${BASE}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: true,
    id: 'createConnection',
  },
  {
    method: 'POST',
    path: `${BASE}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    id: 'createIdempotencyKey',
  },
  { method: 'GET', path: `${BASE}/stream`, purpose: 'status stream (Server-Sent Events)', auth: false, id: 'stream' },
  {
    method: 'POST',
    path: `${BASE}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    key: true,
    id: 'createWebhook',
  },
  {
    method: 'DELETE',
    path: `${BASE}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: true,
    id: 'deleteWebhook',
  },
  {
    method: 'GET',
    path: `${BASE}/webhooks/{webhookId}/attempts`,
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    id: 'listWebhookAttempts',
  },
  {
    method: 'POST',
    path: `${BASE}/webhooks/{webhookId}/attempts/{attemptId}/retry`,
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: true,
    id: 'retryWebhookAttempt',
  },
  { method: 'GET', path: `${BASE}/audit-log`, purpose: 'audit log with hash-chain proof', auth: true, id: 'auditLog' },
];

/** Matches a request against a route's template; the parameters by name, or undefined. */
export function match(route: Route, method: string, path: string): Record<string, string> | undefined {
  if (route.method !== method) return undefined;
  const names: string[] = [];
  const source = route.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_m, n: string) => {
    names.push(n);
    return '([^/]+)';
  });
  const m = new RegExp(`^${source}$`).exec(path);
  if (!m) return undefined;
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? '')]));
}
