// The route table: the self-description's routes and the OpenAPI document are both written from it, so the
// three never disagree. Paths are relative to /api/public/v1.
export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  /** Idempotency-Key: required ("yes + key"), optional (honoured when sent) or not read. */
  key: 'required' | 'optional' | 'none';
  operationId: string;
  /** Part of the interface's endpoint table (the rest are this deployment's additions). */
  core: boolean;
}

export const ROUTES: Route[] = [
  {
    method: 'GET',
    path: '',
    purpose: 'self-description',
    auth: false,
    key: 'none',
    operationId: 'describeService',
    core: true,
  },
  {
    method: 'GET',
    path: '/openapi.json',
    purpose: 'OpenAPI 3.1 document (JSON)',
    auth: false,
    key: 'none',
    operationId: 'getOpenApiJson',
    core: true,
  },
  {
    method: 'GET',
    path: '/openapi.yaml',
    purpose: 'OpenAPI 3.1 document (YAML)',
    auth: false,
    key: 'none',
    operationId: 'getOpenApiYaml',
    core: false,
  },
  {
    method: 'GET',
    path: '/info',
    purpose: 'the calling access: client, tenant, environment, token expiry',
    auth: true,
    key: 'none',
    operationId: 'getInfo',
    core: false,
  },
  {
    method: 'GET',
    path: '/providers',
    purpose: 'list providers',
    auth: true,
    key: 'none',
    operationId: 'listProviders',
    core: true,
  },
  {
    method: 'GET',
    path: '/connectors',
    purpose: 'list connectors',
    auth: true,
    key: 'none',
    operationId: 'listConnectors',
    core: true,
  },
  {
    method: 'GET',
    path: '/capabilities',
    purpose: 'capability catalog',
    auth: true,
    key: 'none',
    operationId: 'listCapabilities',
    core: true,
  },
  {
    method: 'POST',
    path: '/capabilities',
    purpose: 'check a capability of a connector',
    auth: true,
    key: 'optional',
    operationId: 'checkCapability',
    core: true,
  },
  {
    method: 'GET',
    path: '/connections',
    purpose: 'connections of the tenant',
    auth: true,
    key: 'none',
    operationId: 'listConnections',
    core: true,
  },
  {
    method: 'POST',
    path: '/connections',
    purpose: 'create a connection',
    auth: true,
    key: 'required',
    operationId: 'createConnection',
    core: true,
  },
  {
    method: 'GET',
    path: '/connections/{connectionId}',
    purpose: 'one connection of the tenant',
    auth: true,
    key: 'none',
    operationId: 'showConnection',
    core: false,
  },
  {
    method: 'POST',
    path: '/idempotency-keys',
    purpose: 'generate an idempotency key',
    auth: true,
    key: 'optional',
    operationId: 'createIdempotencyKey',
    core: true,
  },
  {
    method: 'GET',
    path: '/stream',
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    key: 'none',
    operationId: 'openStream',
    core: true,
  },
  {
    method: 'POST',
    path: '/webhooks',
    purpose: 'create a webhook receiver',
    auth: true,
    key: 'required',
    operationId: 'createWebhook',
    core: true,
  },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}',
    purpose: 'one webhook receiver (without its signing key)',
    auth: true,
    key: 'none',
    operationId: 'showWebhook',
    core: false,
  },
  {
    method: 'DELETE',
    path: '/webhooks/{webhookId}',
    purpose: 'remove a webhook receiver',
    auth: true,
    key: 'required',
    operationId: 'deleteWebhook',
    core: false,
  },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}/attempts',
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    key: 'none',
    operationId: 'listWebhookAttempts',
    core: false,
  },
  {
    method: 'POST',
    path: '/webhooks/{webhookId}/attempts/{attemptId}/resend',
    purpose: 'send a logged delivery again',
    auth: true,
    key: 'required',
    operationId: 'resendWebhookAttempt',
    core: false,
  },
  {
    method: 'GET',
    path: '/audit-log',
    purpose: 'audit log of the tenant with a proof of integrity',
    auth: true,
    key: 'none',
    operationId: 'getAuditLog',
    core: true,
  },
];

/** Matches a concrete path against the table; ids are numeric strings, as Laravel's route constraints say. */
export function matchPath(path: string): { routes: Route[]; params: Record<string, string> } {
  const routes: Route[] = [];
  let params: Record<string, string> = {};
  for (const r of ROUTES) {
    const names: string[] = [];
    const source = r.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      names.push(name);
      return '(\\d{1,18})';
    });
    const m = new RegExp(`^${source}$`).exec(path);
    if (!m) continue;
    routes.push(r);
    params = Object.fromEntries(names.map((n, i) => [n, m[i + 1] ?? '']));
  }
  return { routes, params };
}
