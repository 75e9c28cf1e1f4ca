// The URL conf: every route with its purpose (the self-description lists them), whether it is
// authenticated, its Idempotency-Key rule and its throttle scope. Paths are written without the API
// prefix and matched with or without a trailing slash.
import type { Ctx } from './core.ts';
import type { State } from './state.ts';
import * as cat from './views-catalog.ts';
import * as hooks from './views-webhooks.ts';

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  /** required: 428 without it; optional: honoured when sent; none: not read. */
  key: 'required' | 'optional' | 'none';
  scope: string;
  /** Not one of the interface's own routes (listed, but marked as an extension). */
  extension?: boolean;
  handler: (s: State, ctx: Ctx, ...params: string[]) => void | Promise<void>;
}

const PUBLIC = { auth: false, key: 'none', scope: 'public' } as const;

export const ROUTES: Route[] = [
  { method: 'GET', path: '', purpose: 'self-description', ...PUBLIC, handler: () => undefined },
  { method: 'GET', path: '/openapi.json', purpose: 'OpenAPI 3.1 document', ...PUBLIC, handler: () => undefined },
  {
    method: 'GET',
    path: '/openapi.yaml',
    purpose: 'OpenAPI 3.1 document (YAML download)',
    ...PUBLIC,
    extension: true,
    handler: () => undefined,
  },
  {
    method: 'GET',
    path: '/schema/{file}',
    purpose: 'OpenAPI document of one version: <version>.json or <version>.yaml download',
    ...PUBLIC,
    extension: true,
    handler: () => undefined,
  },
  {
    method: 'GET',
    path: '/providers',
    purpose: 'list providers',
    auth: true,
    key: 'none',
    scope: 'catalog',
    handler: cat.listProviders,
  },
  {
    method: 'GET',
    path: '/connectors',
    purpose: 'list connectors',
    auth: true,
    key: 'none',
    scope: 'catalog',
    handler: cat.listConnectors,
  },
  {
    method: 'GET',
    path: '/capabilities',
    purpose: 'capability catalog',
    auth: true,
    key: 'none',
    scope: 'catalog',
    handler: cat.listCapabilities,
  },
  {
    method: 'POST',
    path: '/capabilities',
    purpose: 'check a capability of a connector',
    auth: true,
    key: 'optional',
    scope: 'catalog',
    handler: cat.checkCapability,
  },
  {
    method: 'GET',
    path: '/connections',
    purpose: 'connections of the tenant',
    auth: true,
    key: 'none',
    scope: 'connections',
    handler: cat.listConnections,
  },
  {
    method: 'POST',
    path: '/connections',
    purpose: 'create a connection',
    auth: true,
    key: 'required',
    scope: 'connections',
    handler: cat.createConnection,
  },
  {
    method: 'POST',
    path: '/idempotency-keys',
    purpose: 'generate an idempotency key',
    auth: true,
    key: 'optional',
    scope: 'keys',
    handler: cat.issueKey,
  },
  {
    method: 'GET',
    path: '/stream',
    purpose: 'status stream (Server-Sent Events)',
    ...PUBLIC,
    handler: () => undefined,
  },
  {
    method: 'POST',
    path: '/webhooks',
    purpose: 'create a webhook receiver',
    auth: true,
    key: 'required',
    scope: 'webhooks',
    handler: hooks.registerWebhook,
  },
  {
    method: 'GET',
    path: '/audit-log',
    purpose: 'audit log with proof of integrity',
    auth: true,
    key: 'none',
    scope: 'audit',
    handler: hooks.auditLog,
  },
  {
    method: 'GET',
    path: '/info',
    purpose: 'who am I: tenant, client and environment of the call',
    auth: true,
    key: 'none',
    scope: 'catalog',
    extension: true,
    handler: cat.info,
  },
  {
    method: 'GET',
    path: '/webhooks',
    purpose: 'list webhook receivers of the tenant',
    auth: true,
    key: 'none',
    scope: 'webhooks',
    extension: true,
    handler: hooks.listWebhooks,
  },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}',
    purpose: 'one webhook receiver',
    auth: true,
    key: 'none',
    scope: 'webhooks',
    extension: true,
    handler: hooks.getWebhook,
  },
  {
    method: 'DELETE',
    path: '/webhooks/{webhookId}',
    purpose: 'deactivate a webhook receiver',
    auth: true,
    key: 'required',
    scope: 'webhooks',
    extension: true,
    handler: hooks.deleteWebhook,
  },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}/deliveries',
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    key: 'none',
    scope: 'webhooks',
    extension: true,
    handler: hooks.listDeliveries,
  },
  {
    method: 'POST',
    path: '/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: 'required',
    scope: 'webhooks',
    extension: true,
    handler: hooks.redeliver,
  },
];

const compiled = ROUTES.map((r) => ({
  route: r,
  re: new RegExp(`^${r.path.replace(/\{\w+\}/g, '([^/]+)')}$`),
}));

/** The routes of a path (any method) with the captured parameters. */
export function match(path: string): { route: Route; params: string[] }[] {
  const out: { route: Route; params: string[] }[] = [];
  for (const { route, re } of compiled) {
    const m = re.exec(path);
    if (m) out.push({ route, params: m.slice(1).map((p) => decodeURIComponent(p)) });
  }
  return out;
}
