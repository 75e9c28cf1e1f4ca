// The route table, one source for the self-description, the OpenAPI document and the router's 405s.
export interface Route {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  /** Operation name in the OpenAPI document (snake_case, as the Gleam handlers are named). */
  op: string;
  key?: boolean;
}

const P = '/api/public/v1';

export const ROUTES: Route[] = [
  { method: 'GET', path: P, purpose: 'self-description', auth: false, op: 'describe' },
  { method: 'GET', path: `${P}/openapi.json`, purpose: 'OpenAPI 3.1 document', auth: false, op: 'openapi' },
  {
    method: 'GET',
    path: `${P}/openapi/{version}.json`,
    purpose: 'OpenAPI document of a version as a JSON file',
    auth: false,
    op: 'openapi_json_file',
  },
  {
    method: 'GET',
    path: `${P}/openapi/{version}.yaml`,
    purpose: 'OpenAPI document of a version as a YAML file',
    auth: false,
    op: 'openapi_yaml_file',
  },
  { method: 'GET', path: `${P}/info`, purpose: 'who is calling: client, tenant and version', auth: true, op: 'info' },
  { method: 'GET', path: `${P}/providers`, purpose: 'list providers', auth: true, op: 'list_providers' },
  { method: 'GET', path: `${P}/connectors`, purpose: 'list connectors', auth: true, op: 'list_connectors' },
  { method: 'GET', path: `${P}/capabilities`, purpose: 'capability catalog', auth: true, op: 'list_capabilities' },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    op: 'check_capability',
  },
  { method: 'GET', path: `${P}/connections`, purpose: 'connections of the tenant', auth: true, op: 'list_connections' },
  {
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    op: 'create_connection',
    key: true,
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    op: 'create_idempotency_key',
  },
  { method: 'GET', path: `${P}/stream`, purpose: 'status stream (Server-Sent Events)', auth: false, op: 'stream' },
  { method: 'GET', path: `${P}/webhooks`, purpose: 'webhook receivers of the tenant', auth: true, op: 'list_webhooks' },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    op: 'create_webhook',
    key: true,
  },
  { method: 'GET', path: `${P}/webhooks/{webhookId}`, purpose: 'one webhook receiver', auth: true, op: 'get_webhook' },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    op: 'delete_webhook',
    key: true,
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/delivery-attempts`,
    purpose: 'delivery log of a receiver',
    auth: true,
    op: 'list_delivery_attempts',
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/delivery-attempts/{attemptId}/replay`,
    purpose: 'trigger a logged delivery again',
    auth: true,
    op: 'replay_delivery_attempt',
    key: true,
  },
  { method: 'GET', path: `${P}/audit-log`, purpose: 'audit log with hash-chain proof', auth: true, op: 'audit_log' },
];

/** Matches a concrete path against a template, returning its parameters in order. */
export function match(template: string, path: string): string[] | undefined {
  const t = template.split('/');
  const p = path.split('/');
  if (t.length !== p.length) return undefined;
  const params: string[] = [];
  for (let i = 0; i < t.length; i++) {
    const seg = t[i] ?? '';
    const got = p[i] ?? '';
    if (seg.startsWith('{') && seg.endsWith('}')) {
      if (got === '') return undefined;
      params.push(decodeURIComponent(got));
    } else if (seg.includes('{')) {
      // `{version}.json`: a parameter with a fixed suffix.
      const suffix = seg.slice(seg.indexOf('}') + 1);
      if (!got.endsWith(suffix) || got.length === suffix.length) return undefined;
      params.push(got.slice(0, -suffix.length));
    } else if (seg !== got) return undefined;
  }
  return params;
}
