// The route table (Falcon's `app.add_route` calls, listed once): the self-description and the OpenAPI document
// are both derived from it, so they describe exactly what the router serves.
export interface Route {
  method: string;
  /** The path in OpenAPI template form, relative to /api/public/v1. */
  path: string;
  purpose: string;
  auth: boolean;
  key?: boolean;
  tag: string;
}

export const PREFIX = '/api/public/v1';

export const ROUTES: Route[] = [
  { method: 'GET', path: '', purpose: 'self-description', auth: false, tag: 'meta' },
  { method: 'GET', path: '/openapi.json', purpose: 'OpenAPI 3.1 document', auth: false, tag: 'meta' },
  {
    method: 'GET',
    path: '/openapi/{version}.json',
    purpose: 'OpenAPI document of a version (JSON file)',
    auth: false,
    tag: 'meta',
  },
  {
    method: 'GET',
    path: '/openapi/{version}.yaml',
    purpose: 'OpenAPI document of a version (YAML file)',
    auth: false,
    tag: 'meta',
  },
  { method: 'GET', path: '/info', purpose: 'the calling client and tenant', auth: true, tag: 'meta' },
  { method: 'GET', path: '/providers', purpose: 'list providers', auth: true, tag: 'catalog' },
  { method: 'GET', path: '/connectors', purpose: 'list connectors', auth: true, tag: 'catalog' },
  { method: 'GET', path: '/capabilities', purpose: 'capability catalog', auth: true, tag: 'catalog' },
  { method: 'POST', path: '/capabilities', purpose: 'check a capability of a connector', auth: true, tag: 'catalog' },
  { method: 'GET', path: '/connections', purpose: 'connections of the tenant', auth: true, tag: 'connections' },
  { method: 'POST', path: '/connections', purpose: 'create a connection', auth: true, key: true, tag: 'connections' },
  {
    method: 'GET',
    path: '/connections/{connectionId}',
    purpose: 'one connection of the tenant',
    auth: true,
    tag: 'connections',
  },
  { method: 'POST', path: '/idempotency-keys', purpose: 'generate an idempotency key', auth: true, tag: 'idempotency' },
  { method: 'GET', path: '/stream', purpose: 'status stream (Server-Sent Events)', auth: false, tag: 'events' },
  { method: 'GET', path: '/webhooks', purpose: 'webhook receivers of the tenant', auth: true, tag: 'webhooks' },
  { method: 'POST', path: '/webhooks', purpose: 'create a webhook receiver', auth: true, key: true, tag: 'webhooks' },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}',
    purpose: 'one webhook receiver (without its key)',
    auth: true,
    tag: 'webhooks',
  },
  {
    method: 'DELETE',
    path: '/webhooks/{webhookId}',
    purpose: 'remove a webhook receiver',
    auth: true,
    key: true,
    tag: 'webhooks',
  },
  {
    method: 'GET',
    path: '/webhook-deliveries',
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    tag: 'webhooks',
  },
  {
    method: 'POST',
    path: '/webhook-deliveries/{deliveryId}/retry',
    purpose: 'deliver a logged delivery again',
    auth: true,
    key: true,
    tag: 'webhooks',
  },
  { method: 'GET', path: '/audit-log', purpose: 'audit log with hash-chain proof', auth: true, tag: 'audit' },
];

/** The self-description's routes (RouteInfo), full paths. */
export function routeInfo() {
  return ROUTES.map((r) => ({ method: r.method, path: `${PREFIX}${r.path}`, purpose: r.purpose, auth: r.auth }));
}
