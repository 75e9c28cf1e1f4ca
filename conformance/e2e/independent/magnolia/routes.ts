// The route table (Hasura REST endpoints): routing, the self-description and the OpenAPI document all
// read it, so what is served and what is described cannot drift apart.
export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** Relative to /api/public/v1; {name} is a path parameter. */
  path: string;
  operationId: string;
  auth: 'public' | 'yes' | 'key';
  purpose: string;
  /** Part of the interface's table (the rest are magnolia's additions). */
  contract: boolean;
}

export const BASE = '/api/public/v1';

export const ROUTES: Route[] = [
  { method: 'GET', path: '', operationId: 'describe', auth: 'public', purpose: 'self-description', contract: true },
  {
    method: 'GET',
    path: '/openapi.json',
    operationId: 'openapiJson',
    auth: 'public',
    purpose: 'OpenAPI 3.1 document',
    contract: true,
  },
  {
    method: 'GET',
    path: '/openapi/{version}.json',
    operationId: 'openapiJsonFile',
    auth: 'public',
    purpose: 'OpenAPI document of one version (JSON download)',
    contract: false,
  },
  {
    method: 'GET',
    path: '/openapi/{version}.yaml',
    operationId: 'openapiYamlFile',
    auth: 'public',
    purpose: 'OpenAPI document of one version (YAML download)',
    contract: false,
  },
  {
    method: 'GET',
    path: '/info',
    operationId: 'info',
    auth: 'yes',
    purpose: 'the calling access: client, tenant, environment, token expiry',
    contract: false,
  },
  {
    method: 'GET',
    path: '/providers',
    operationId: 'listProviders',
    auth: 'yes',
    purpose: 'list providers',
    contract: true,
  },
  {
    method: 'GET',
    path: '/connectors',
    operationId: 'listConnectors',
    auth: 'yes',
    purpose: 'list connectors',
    contract: true,
  },
  {
    method: 'GET',
    path: '/capabilities',
    operationId: 'listCapabilities',
    auth: 'yes',
    purpose: 'capability catalog',
    contract: true,
  },
  {
    method: 'POST',
    path: '/capabilities',
    operationId: 'checkCapability',
    auth: 'yes',
    purpose: 'check a capability of a connector',
    contract: true,
  },
  {
    method: 'GET',
    path: '/connections',
    operationId: 'listConnections',
    auth: 'yes',
    purpose: 'connections of the tenant',
    contract: true,
  },
  {
    method: 'POST',
    path: '/connections',
    operationId: 'createConnection',
    auth: 'key',
    purpose: 'create a connection',
    contract: true,
  },
  {
    method: 'POST',
    path: '/idempotency-keys',
    operationId: 'issueKey',
    auth: 'yes',
    purpose: 'generate an idempotency key',
    contract: true,
  },
  {
    method: 'GET',
    path: '/stream',
    operationId: 'stream',
    auth: 'public',
    purpose: 'status stream (Server-Sent Events)',
    contract: true,
  },
  {
    method: 'POST',
    path: '/webhooks',
    operationId: 'createWebhook',
    auth: 'key',
    purpose: 'create a webhook receiver',
    contract: true,
  },
  {
    method: 'DELETE',
    path: '/webhooks/{webhookId}',
    operationId: 'deleteWebhook',
    auth: 'key',
    purpose: 'remove a webhook receiver',
    contract: false,
  },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}/attempts',
    operationId: 'listAttempts',
    auth: 'yes',
    purpose: 'delivery log: attempts of a receiver, newest first',
    contract: false,
  },
  {
    method: 'POST',
    path: '/webhooks/{webhookId}/events/{eventId}/retry',
    operationId: 'retryEvent',
    auth: 'key',
    purpose: 'deliver an event again (manual retry)',
    contract: false,
  },
  {
    method: 'GET',
    path: '/audit-log',
    operationId: 'auditLog',
    auth: 'yes',
    purpose: 'audit log with a proof of integrity',
    contract: true,
  },
  {
    method: 'GET',
    path: '/audit-log/keys',
    operationId: 'auditKeys',
    auth: 'public',
    purpose: 'public keys that sign the audit proof (JWKS)',
    contract: false,
  },
];

/** The route for a path (below BASE) and method, with its path parameters; pathOnly when only the method differs. */
export function match(
  method: string,
  rel: string,
): { route?: Route; params: Record<string, string>; pathOnly: boolean } {
  let pathOnly = false;
  for (const r of ROUTES) {
    const names: string[] = [];
    const re = new RegExp(
      `^${r.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_, n: string) => {
        names.push(n);
        return '([^/]+)';
      })}$`,
    );
    const m = re.exec(rel);
    if (!m) continue;
    if (r.method !== method) {
      pathOnly = true;
      continue;
    }
    const params: Record<string, string> = {};
    names.forEach((n, i) => {
      params[n] = decodeURIComponent(m[i + 1] ?? '');
    });
    return { route: r, params, pathOnly };
  }
  return { params: {}, pathOnly };
}
