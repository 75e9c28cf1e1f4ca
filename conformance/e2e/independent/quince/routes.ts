// Quince's route table: what the server dispatches, the self-description lists and the OpenAPI document holds.
import { auditPage } from './audit.ts';
import type { Call } from './handlers.ts';
import {
  checkCapability,
  createConnection,
  info,
  issueKey,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
} from './handlers.ts';
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, retryDelivery } from './webhook-handlers.ts';

export interface Route {
  method: string;
  /** OpenAPI-style template, e.g. /api/public/v1/webhooks/{webhookId}. */
  path: string;
  purpose: string;
  auth: boolean;
  /** required: 428 without Idempotency-Key; optional: honoured when sent; none: not read. */
  key: 'required' | 'optional' | 'none';
  handler?: (call: Call) => unknown;
  /** Name of the OpenAPI schema of `data`. */
  schema: string;
}

const P = '/api/public/v1';

export const ROUTES: Route[] = [
  { method: 'GET', path: P, purpose: 'self-description', auth: false, key: 'none', schema: 'Description' },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    purpose: 'OpenAPI 3.1 document (JSON)',
    auth: false,
    key: 'none',
    schema: 'Document',
  },
  {
    method: 'GET',
    path: `${P}/openapi.yaml`,
    purpose: 'OpenAPI 3.1 document (YAML)',
    auth: false,
    key: 'none',
    schema: 'Document',
  },
  {
    method: 'GET',
    path: `${P}/info`,
    purpose: 'who is calling: tenant, client, environment',
    auth: true,
    key: 'none',
    handler: info,
    schema: 'Info',
  },
  {
    method: 'GET',
    path: `${P}/providers`,
    purpose: 'list providers',
    auth: true,
    key: 'none',
    handler: listProviders,
    schema: 'ProviderList',
  },
  {
    method: 'GET',
    path: `${P}/connectors`,
    purpose: 'list connectors',
    auth: true,
    key: 'none',
    handler: listConnectors,
    schema: 'ConnectorList',
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    key: 'none',
    handler: listCapabilities,
    schema: 'CapabilityList',
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    key: 'optional',
    handler: checkCapability,
    schema: 'CapabilityCheck',
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    key: 'none',
    handler: listConnections,
    schema: 'ConnectionList',
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: 'required',
    handler: createConnection,
    schema: 'Connection',
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    key: 'optional',
    handler: issueKey,
    schema: 'IdempotencyKey',
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    key: 'none',
    schema: 'Stream',
  },
  {
    method: 'GET',
    path: `${P}/webhooks`,
    purpose: 'webhook receivers of the tenant',
    auth: true,
    key: 'none',
    handler: listWebhooks,
    schema: 'WebhookList',
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    key: 'required',
    handler: createWebhook,
    schema: 'WebhookCreated',
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: 'required',
    handler: deleteWebhook,
    schema: 'WebhookDeleted',
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/deliveries`,
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    key: 'none',
    handler: listDeliveries,
    schema: 'DeliveryList',
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/deliveries/{deliveryId}:retry`,
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: 'required',
    handler: retryDelivery,
    schema: 'DeliveryRetry',
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log of the tenant with a SHA-512 hash chain',
    auth: true,
    key: 'none',
    handler: (c) => auditPage(c.state, c.tenant, c.ctx.url.searchParams),
    schema: 'AuditLog',
  },
];

function matcher(path: string): RegExp {
  const re = path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '([A-Za-z0-9_-]+)');
  return new RegExp(`^${re}$`);
}

const COMPILED = ROUTES.map((r) => ({ r, re: matcher(r.path) }));

/** The route for a path and method, the path's parameters, or `known` when the path exists with other methods. */
export function match(method: string, pathname: string): { route?: Route; params: string[]; known: boolean } {
  let known = false;
  for (const { r, re } of COMPILED) {
    const m = re.exec(pathname);
    if (!m) continue;
    known = true;
    if (r.method === method) return { route: r, params: m.slice(1), known };
  }
  return { params: [], known };
}
