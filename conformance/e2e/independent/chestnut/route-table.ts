// Every route, once: the dispatcher, the self-description and the OpenAPI document all read this table.
import * as h from './routes.ts';

export type KeyRule = 'required' | 'honoured' | 'none';

export interface Route {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  key: KeyRule;
  operationId: string;
  handler?: (c: h.Call) => h.Outcome;
  /** Offered since this version (the delivery log came with 2026-07-01). */
  since?: string;
  /** Query parameters the operation reads; with strictQuery any other is refused (400). */
  query?: string[];
}

const P = '/api/public/v1';

export const ROUTES: Route[] = [
  { method: 'GET', path: P, purpose: 'self-description', auth: false, key: 'none', operationId: 'getSelfDescription' },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    key: 'none',
    operationId: 'getOpenApi',
  },
  {
    method: 'GET',
    path: `${P}/providers`,
    purpose: 'list providers',
    auth: true,
    key: 'none',
    operationId: 'listProviders',
    handler: h.listProviders,
    query: ['category'],
  },
  {
    method: 'GET',
    path: `${P}/connectors`,
    purpose: 'list connectors',
    auth: true,
    key: 'none',
    operationId: 'listConnectors',
    handler: h.listConnectors,
    query: ['capability', 'providerId', 'category'],
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    key: 'none',
    operationId: 'listCapabilities',
    handler: h.listCapabilities,
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    key: 'honoured',
    operationId: 'checkCapability',
    handler: h.checkCapability,
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    key: 'none',
    operationId: 'listConnections',
    handler: h.listConnections,
    query: ['limit', 'continue'],
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: 'required',
    operationId: 'createConnection',
    handler: h.createConnection,
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    key: 'honoured',
    operationId: 'createIdempotencyKey',
    handler: h.issueKey,
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    key: 'none',
    operationId: 'watchStatus',
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    key: 'required',
    operationId: 'createWebhook',
    handler: h.registerWebhook,
  },
  {
    method: 'GET',
    path: `${P}/webhooks`,
    purpose: 'webhook receivers of the tenant',
    auth: true,
    key: 'none',
    operationId: 'listWebhooks',
    handler: h.listWebhooks,
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: 'required',
    operationId: 'deleteWebhook',
    handler: h.deleteWebhook,
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/deliveryattempts`,
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    key: 'none',
    operationId: 'listDeliveryAttempts',
    handler: h.deliveryLog,
    query: ['limit', 'continue'],
    since: '2026-07-01',
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/deliveryattempts/{deliveryId}/redeliver`,
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: 'required',
    operationId: 'redeliverDeliveryAttempt',
    handler: h.redeliver,
    since: '2026-07-01',
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log with a hash-chain proof',
    auth: true,
    key: 'none',
    operationId: 'getAuditLog',
    handler: h.auditLog,
    query: ['limit', 'continue'],
  },
  {
    method: 'GET',
    path: `${P}/info`,
    purpose: 'who is calling: tenant, access, environment',
    auth: true,
    key: 'none',
    operationId: 'getInfo',
    handler: h.info,
  },
];

const compiled = ROUTES.map((r) => ({
  route: r,
  re: new RegExp(`^${r.path.replace(/\{(\w+)\}/g, (_m, n: string) => `(?<${n === 'webhookId' ? 'id' : n}>[^/]+)`)}$`),
}));

/** The route for a method and path, with its path parameters; `pathKnown` tells 404 for a path from one for a method. */
export function match(
  method: string,
  path: string,
): { route?: Route; params: Record<string, string>; pathKnown: boolean } {
  let pathKnown = false;
  for (const c of compiled) {
    const m = c.re.exec(path);
    if (m === null) continue;
    pathKnown = true;
    if (c.route.method === method) {
      const params: Record<string, string> = {};
      for (const [k, v] of Object.entries(m.groups ?? {})) params[k] = decodeURIComponent(v);
      return { route: c.route, params, pathKnown };
    }
  }
  return { params: {}, pathKnown };
}
