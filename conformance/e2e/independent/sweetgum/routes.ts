// The route table, written once: the router, the self-description and the OpenAPI document read it.
// Paths are relative to /api/public/v1 and use OpenAPI's `{param}` form.
export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  /** Needs an Idempotency-Key. */
  key?: boolean;
  /** Introduced by this version (absent: every version). */
  since?: string;
}

export const ROUTES: Route[] = [
  { method: 'GET', path: '', purpose: 'self-description', auth: false },
  { method: 'GET', path: '/openapi.json', purpose: 'OpenAPI 3.1 document', auth: false },
  {
    method: 'GET',
    path: '/openapi/{version}.json',
    purpose: 'OpenAPI 3.1 document of one version (JSON file)',
    auth: false,
  },
  {
    method: 'GET',
    path: '/openapi/{version}.yaml',
    purpose: 'OpenAPI 3.1 document of one version (YAML file)',
    auth: false,
  },
  { method: 'GET', path: '/info', purpose: 'caller, tenant and environment', auth: true },
  { method: 'GET', path: '/providers', purpose: 'list providers', auth: true },
  { method: 'GET', path: '/connectors', purpose: 'list connectors', auth: true },
  { method: 'GET', path: '/capabilities', purpose: 'capability catalog', auth: true },
  { method: 'POST', path: '/capabilities', purpose: 'check a capability of a connector', auth: true },
  { method: 'GET', path: '/connections', purpose: 'connections of the tenant', auth: true },
  { method: 'POST', path: '/connections', purpose: 'create a connection', auth: true, key: true },
  { method: 'POST', path: '/idempotency-keys', purpose: 'generate an idempotency key', auth: true },
  { method: 'GET', path: '/stream', purpose: 'status stream (Server-Sent Events)', auth: false },
  { method: 'POST', path: '/webhooks', purpose: 'create a webhook receiver', auth: true, key: true },
  { method: 'GET', path: '/webhooks/{webhookId}', purpose: 'show a webhook receiver', auth: true },
  { method: 'DELETE', path: '/webhooks/{webhookId}', purpose: 'remove a webhook receiver', auth: true, key: true },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}/delivery-attempts',
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    since: '2026-07-01',
  },
  {
    method: 'POST',
    path: '/webhooks/{webhookId}/delivery-attempts/{attemptId}/resend',
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: true,
    since: '2026-07-01',
  },
  { method: 'GET', path: '/audit-log', purpose: 'audit log of the tenant with its hash-chain proof', auth: true },
];

export const routesOf = (version: string) => ROUTES.filter((r) => !r.since || r.since <= version);
