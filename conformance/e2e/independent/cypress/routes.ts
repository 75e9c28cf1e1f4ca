// config/routes.rb: every route, what it needs (token, key) and its controller action.
import type { Call } from './handlers.ts';
import * as h from './handlers.ts';
import type { State } from './state.ts';
import { BASE } from './util.ts';
import * as w from './webhook-handlers.ts';

export interface Route {
  method: string;
  /** Path under the base, with :param segments. */
  path: string;
  auth: boolean;
  /** "required": a modifying call (428 without a key); "optional": honoured when sent; "none": a read. */
  key: 'required' | 'optional' | 'none';
  purpose: string;
  run?: (s: State, c: Call) => unknown;
}

export const ROUTES: Route[] = [
  { method: 'GET', path: '', auth: false, key: 'none', purpose: 'self-description' },
  { method: 'GET', path: '/openapi.json', auth: false, key: 'none', purpose: 'OpenAPI 3.1 document' },
  {
    method: 'GET',
    path: '/openapi/2026-07-01.json',
    auth: false,
    key: 'none',
    purpose: 'OpenAPI 3.1 document (download, JSON)',
  },
  {
    method: 'GET',
    path: '/openapi/2026-07-01.yaml',
    auth: false,
    key: 'none',
    purpose: 'OpenAPI 3.1 document (download, YAML)',
  },
  { method: 'GET', path: '/stream', auth: false, key: 'none', purpose: 'status stream (Server-Sent Events)' },
  { method: 'GET', path: '/info', auth: true, key: 'none', purpose: 'the access of the call', run: h.info },
  { method: 'GET', path: '/providers', auth: true, key: 'none', purpose: 'list providers', run: h.listProviders },
  { method: 'GET', path: '/connectors', auth: true, key: 'none', purpose: 'list connectors', run: h.listConnectors },
  {
    method: 'GET',
    path: '/capabilities',
    auth: true,
    key: 'none',
    purpose: 'capability catalog',
    run: h.listCapabilities,
  },
  {
    method: 'POST',
    path: '/capabilities',
    auth: true,
    key: 'optional',
    purpose: 'check a capability of a connector',
    run: h.checkCapability,
  },
  {
    method: 'GET',
    path: '/connections',
    auth: true,
    key: 'none',
    purpose: 'connections of the tenant',
    run: h.listConnections,
  },
  {
    method: 'POST',
    path: '/connections',
    auth: true,
    key: 'required',
    purpose: 'create a connection',
    run: h.createConnection,
  },
  {
    method: 'POST',
    path: '/idempotency-keys',
    auth: true,
    key: 'optional',
    purpose: 'generate an idempotency key',
    run: h.createKey,
  },
  {
    method: 'GET',
    path: '/webhooks',
    auth: true,
    key: 'none',
    purpose: 'webhook receivers of the tenant',
    run: w.listWebhooks,
  },
  {
    method: 'POST',
    path: '/webhooks',
    auth: true,
    key: 'required',
    purpose: 'create a webhook receiver',
    run: w.createWebhook,
  },
  {
    method: 'DELETE',
    path: '/webhooks/:webhookId',
    auth: true,
    key: 'required',
    purpose: 'remove a webhook receiver',
    run: w.deleteWebhook,
  },
  {
    method: 'GET',
    path: '/webhook-deliveries',
    auth: true,
    key: 'none',
    purpose: 'webhook delivery log',
    run: w.listDeliveries,
  },
  {
    method: 'POST',
    path: '/webhook-deliveries/:deliveryId/retry',
    auth: true,
    key: 'required',
    purpose: 'trigger a delivery again',
    run: w.retryDelivery,
  },
  { method: 'GET', path: '/audit-log', auth: true, key: 'none', purpose: 'audit log with a proof of integrity' },
];

/** The route of a method and path, its parameters, or whether the path exists under another method. */
export function match(method: string, path: string): { route?: Route; params: string[]; pathKnown: boolean } {
  let pathKnown = false;
  for (const route of ROUTES) {
    const want = `${BASE}${route.path}`.split('/');
    const got = path.split('/');
    if (want.length !== got.length) continue;
    const params: string[] = [];
    const same = want.every((seg, i) => {
      const g = got[i] ?? '';
      if (seg.startsWith(':')) {
        params.push(decodeURIComponent(g));
        return g.length > 0;
      }
      return seg === g;
    });
    if (!same) continue;
    pathKnown = true;
    if (route.method === method) return { route, params, pathKnown };
  }
  return { params: [], pathKnown };
}

/** The path as the OpenAPI document writes it: {param} for :param. */
export function openapiPath(route: Route): string {
  return `${BASE}${route.path}`.replace(/:(\w+)/g, '{$1}');
}
