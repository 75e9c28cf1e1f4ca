// The route table (Reitit style: data first), read by the dispatcher, the self-description and the OpenAPI
// document alike, so what is served and what is described cannot drift apart.
import { listAudit } from './audit.ts';
import { listDeliveries, retryDelivery } from './deliveries.ts';
import type { Ctx } from './http.ts';
import { openapiJson } from './openapi-files.ts';
import {
  checkCapability,
  createConnection,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
} from './resources.ts';
import { describe, download, info, keys } from './self-description.ts';
import type { Store } from './state.ts';
import { stream } from './stream.ts';
import { createWebhook, deleteWebhook, listWebhooks } from './webhooks.ts';

export interface Route {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  handler: (store: Store, ctx: Ctx) => void | Promise<void>;
}

const P = '/api/public/v1';

export const ROUTES: Route[] = [
  { method: 'GET', path: P, purpose: 'self-description', auth: false, handler: (s, c) => describe(s, c) },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    handler: (_s, c) => openapiJson(c),
  },
  {
    method: 'GET',
    path: `${P}/openapi/{version}.json`,
    purpose: 'OpenAPI document of one version (JSON download)',
    auth: false,
    handler: (_s, c) => download(c, 'json'),
  },
  {
    method: 'GET',
    path: `${P}/openapi/{version}.yaml`,
    purpose: 'OpenAPI document of one version (YAML download)',
    auth: false,
    handler: (_s, c) => download(c, 'yaml'),
  },
  {
    method: 'GET',
    path: `${P}/info`,
    purpose: 'who am I: access, tenant, version',
    auth: true,
    handler: (s, c) => info(s, c),
  },
  { method: 'GET', path: `${P}/providers`, purpose: 'list providers', auth: true, handler: listProviders },
  { method: 'GET', path: `${P}/connectors`, purpose: 'list connectors', auth: true, handler: listConnectors },
  { method: 'GET', path: `${P}/capabilities`, purpose: 'capability catalog', auth: true, handler: listCapabilities },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    handler: checkCapability,
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    handler: listConnections,
  },
  { method: 'POST', path: `${P}/connections`, purpose: 'create a connection', auth: true, handler: createConnection },
  { method: 'POST', path: `${P}/idempotency-keys`, purpose: 'generate an idempotency key', auth: true, handler: keys },
  { method: 'GET', path: `${P}/stream`, purpose: 'status stream (Server-Sent Events)', auth: false, handler: stream },
  { method: 'GET', path: `${P}/webhooks`, purpose: 'list webhook receivers', auth: true, handler: listWebhooks },
  { method: 'POST', path: `${P}/webhooks`, purpose: 'create a webhook receiver', auth: true, handler: createWebhook },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    handler: deleteWebhook,
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/delivery-attempts`,
    purpose: 'delivery log of a receiver',
    auth: true,
    handler: listDeliveries,
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/delivery-attempts/{attemptId}/retry`,
    purpose: 'trigger a delivery again',
    auth: true,
    handler: retryDelivery,
  },
  { method: 'GET', path: `${P}/audit-log`, purpose: 'audit log with hash-chain proof', auth: true, handler: listAudit },
];

/** Matches a concrete path against a template; the captured parameters, or undefined. */
export function match(template: string, path: string): Record<string, string> | undefined {
  const a = template.split('/');
  const b = path.split('/');
  if (a.length !== b.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    const t = a[i] ?? '';
    const v = b[i] ?? '';
    // A segment may be a parameter with a fixed suffix, as in {version}.json.
    const m = /^\{(\w+)\}(.*)$/.exec(t);
    if (m?.[1] !== undefined) {
      const suffix = m[2] ?? '';
      if (!v.endsWith(suffix) || v.length === suffix.length) return undefined;
      params[m[1]] = decodeURIComponent(v.slice(0, v.length - suffix.length));
    } else if (t !== v) return undefined;
  }
  return params;
}
