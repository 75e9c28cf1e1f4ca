// The route table: what the self-description lists and the OpenAPI document describes (one source).
export interface Route {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  keyed?: boolean;
  operationId: string;
  /** The first version offering the route (the delivery log came with 2026-07-01). */
  since?: string;
}

const P = '/api/public/v1';

export const ROUTES: Route[] = [
  { method: 'GET', path: P, purpose: 'self-description', auth: false, operationId: 'describe' },
  { method: 'GET', path: `${P}/openapi.json`, purpose: 'OpenAPI 3.1 document', auth: false, operationId: 'openApi' },
  { method: 'GET', path: `${P}/info`, purpose: 'service info (first call)', auth: false, operationId: 'info' },
  { method: 'GET', path: `${P}/providers`, purpose: 'list providers', auth: true, operationId: 'listProviders' },
  { method: 'GET', path: `${P}/connectors`, purpose: 'list connectors', auth: true, operationId: 'listConnectors' },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    operationId: 'listCapabilities',
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    operationId: 'checkCapability',
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    operationId: 'listConnections',
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    keyed: true,
    operationId: 'createConnection',
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    operationId: 'createIdempotencyKey',
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    operationId: 'stream',
  },
  { method: 'GET', path: `${P}/webhooks`, purpose: 'list webhook receivers', auth: true, operationId: 'listWebhooks' },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    keyed: true,
    operationId: 'createWebhook',
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    keyed: true,
    operationId: 'deleteWebhook',
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/delivery-attempts`,
    purpose: 'delivery log of a receiver',
    auth: true,
    since: '2026-07-01',
    operationId: 'listDeliveryAttempts',
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/delivery-attempts/{attemptId}/retry`,
    purpose: 'trigger a delivery again',
    auth: true,
    since: '2026-07-01',
    keyed: true,
    operationId: 'retryDeliveryAttempt',
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log of the tenant with integrity proof',
    auth: true,
    operationId: 'auditLog',
  },
];

/** Matches a concrete path against the table: the route and its path parameters. */
export function match(method: string, path: string): { route: Route; params: string[] } | undefined {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const re = new RegExp(`^${route.path.replace(/\{\w+\}/g, '([^/]+)').replaceAll('.', '\\.')}$`);
    const m = re.exec(path);
    if (m) return { route, params: m.slice(1).map(decodeURIComponent) };
  }
  return undefined;
}
