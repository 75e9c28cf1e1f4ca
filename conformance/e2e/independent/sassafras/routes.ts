// The route table: one row per endpoint (the contract's and sassafras's own), read by the router, the
// self-description and the OpenAPI document, so what is served and what is described cannot drift apart.
import * as api from './api.ts';
import { listAudit } from './audit.ts';
import type { Caller, Ctx } from './http-kit.ts';
import type { Store } from './state.ts';
import * as hooks from './webhooks.ts';

export interface Call {
  store: Store;
  ctx: Ctx;
  caller: Caller;
  params: Record<string, string>;
  body: Record<string, unknown>;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  /** Idempotency-Key required ("yes + key"). */
  key: boolean;
  operationId: string;
  /** Query parameters, for the OpenAPI document. */
  query?: { name: string; type: 'string' | 'integer'; minimum?: number; maximum?: number }[];
  /** The request body schema, for the OpenAPI document. */
  body?: string;
  handle?: (c: Call) => void;
  /** The version that added the route (the delivery log came with 2026-07-01). */
  since?: string;
}

const P = '/api/public/v1';

export const ROUTES: Route[] = [
  {
    method: 'GET',
    path: P,
    purpose: 'self-description',
    auth: false,
    key: false,
    operationId: 'GetServiceDescription',
  },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    key: false,
    operationId: 'GetOpenApiDocument',
  },
  {
    method: 'GET',
    path: `${P}/openapi/{version}.json`,
    purpose: 'OpenAPI 3.1 document of one version, as a JSON file',
    auth: false,
    key: false,
    operationId: 'DownloadOpenApiJson',
  },
  {
    method: 'GET',
    path: `${P}/openapi/{version}.yaml`,
    purpose: 'OpenAPI 3.1 document of one version, as a YAML file',
    auth: false,
    key: false,
    operationId: 'DownloadOpenApiYaml',
  },
  {
    method: 'GET',
    path: `${P}/info`,
    purpose: 'who is calling: tenant, client, environment, token expiry',
    auth: true,
    key: false,
    operationId: 'GetInfo',
    handle: (c) => api.info(c.store, c.ctx, c.caller),
  },
  {
    method: 'GET',
    path: `${P}/providers`,
    purpose: 'list providers',
    auth: true,
    key: false,
    operationId: 'ListProviders',
    query: [{ name: 'category', type: 'string' }],
    handle: (c) => api.listProviders(c.ctx),
  },
  {
    method: 'GET',
    path: `${P}/connectors`,
    purpose: 'list connectors',
    auth: true,
    key: false,
    operationId: 'ListConnectors',
    query: [
      { name: 'capability', type: 'string' },
      { name: 'providerId', type: 'string' },
      { name: 'category', type: 'string' },
    ],
    handle: (c) => api.listConnectors(c.ctx),
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    key: false,
    operationId: 'ListCapabilities',
    handle: (c) => api.listCapabilities(c.ctx),
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    key: false,
    operationId: 'CheckCapability',
    body: 'CapabilityCheckRequest',
    handle: (c) => api.checkCapability(c.store, c.ctx, c.body),
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    key: false,
    operationId: 'ListConnections',
    handle: (c) => api.listConnections(c.store, c.ctx, c.caller),
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: true,
    operationId: 'CreateConnection',
    body: 'CreateConnectionRequest',
    handle: (c) => api.createConnection(c.store, c.ctx, c.caller, c.body),
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    key: false,
    operationId: 'CreateIdempotencyKey',
    body: 'IdempotencyKeyRequest',
    handle: (c) => api.issueKey(c.store, c.ctx, c.body),
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    key: false,
    operationId: 'GetStatusStream',
    query: [{ name: 'cursor', type: 'integer', minimum: 0 }],
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    key: true,
    operationId: 'CreateWebhookSubscription',
    body: 'CreateWebhookRequest',
    handle: (c) => hooks.register(c.store, c.ctx, c.caller, c.body),
  },
  {
    method: 'GET',
    path: `${P}/webhook-subscriptions/{id}`,
    purpose: 'a webhook receiver',
    auth: true,
    key: false,
    operationId: 'GetWebhookSubscription',
    handle: (c) => hooks.getSubscription(c.store, c.ctx, c.caller, c.params.id ?? ''),
  },
  {
    method: 'DELETE',
    path: `${P}/webhook-subscriptions/{id}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: true,
    operationId: 'DeleteWebhookSubscription',
    handle: (c) => hooks.deleteSubscription(c.store, c.ctx, c.caller, c.params.id ?? ''),
  },
  {
    method: 'GET',
    path: `${P}/webhook-subscriptions/{id}/deliveries`,
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    key: false,
    operationId: 'ListWebhookDeliveries',
    since: '2026-07-01',
    handle: (c) => hooks.listDeliveries(c.store, c.ctx, c.caller, c.params.id ?? ''),
  },
  {
    method: 'POST',
    path: `${P}/webhook-subscriptions/{id}/deliveries/{deliveryId}/resend`,
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: true,
    operationId: 'ResendWebhookDelivery',
    since: '2026-07-01',
    handle: (c) => hooks.resend(c.store, c.ctx, c.caller, c.params.id ?? '', c.params.deliveryId ?? ''),
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log with a hash chain (proof of integrity)',
    auth: true,
    key: false,
    operationId: 'GetAuditLog',
    query: [
      { name: 'limit', type: 'integer', minimum: 1, maximum: 500 },
      { name: 'afterSequenceNumber', type: 'integer', minimum: 0 },
      { name: 'beforeSequenceNumber', type: 'integer', minimum: 1 },
    ],
    handle: (c) => listAudit(c.store, c.ctx, c.caller.tenant),
  },
];

/** Finds the route of a path; `methods` lists what the path answers, for a wrong method. */
export function match(
  method: string,
  path: string,
): { route?: Route; params: Record<string, string>; pathKnown: boolean } {
  let pathKnown = false;
  for (const r of ROUTES) {
    const names: string[] = [];
    const pattern = r.path.replaceAll('.', '\\.').replace(/\{(\w+)\}/g, (_m, n: string) => {
      names.push(n);
      return '([^/]+)';
    });
    const re = new RegExp(`^${pattern}$`);
    const m = re.exec(path);
    if (!m) continue;
    pathKnown = true;
    if (r.method !== method) continue;
    const params: Record<string, string> = {};
    names.forEach((n, i) => {
      params[n] = decodeURIComponent(m[i + 1] ?? '');
    });
    return { route: r, params, pathKnown };
  }
  return { params: {}, pathKnown };
}
