// Teak's route table: Kemal's `get "/path/:param" do |env| … end` blocks as data, read by the router, the
// self-description and the OpenAPI generator alike, so the three never disagree.
import { listAudit } from './audit.ts';
import { type Ctx, ok } from './http.ts';
import { createKey, idempotent } from './idempotency.ts';
import { BODIES, type RouteDoc } from './openapi.ts';
import {
  checkCapability,
  createConnection,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
} from './resources.ts';
import type { Store } from './state.ts';
import { openStream } from './stream.ts';
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, redeliver, showWebhook } from './webhooks.ts';

export interface Route extends RouteDoc {
  run: (store: Store, ctx: Ctx) => void;
}

const P = '/api/public/v1';
const str = (name: string) => ({ name, required: false, schema: { type: 'string' } });

/** Every route; the public documents' `run` is empty: the server answers them, since they read the table. */
export function apiRoutes(store: Store): Route[] {
  const paging = store.options.auditPaging === 'cursor' ? 'cursor' : 'page';
  return [
    { method: 'GET', path: P, purpose: 'self-description', auth: false, run: () => {} },
    { method: 'GET', path: `${P}/openapi.json`, purpose: 'OpenAPI 3.1 document', auth: false, run: () => {} },
    {
      method: 'GET',
      path: `${P}/openapi/{version}.json`,
      purpose: 'OpenAPI document of a version (JSON file)',
      auth: false,
      run: () => {},
    },
    {
      method: 'GET',
      path: `${P}/openapi/{version}.yaml`,
      purpose: 'OpenAPI document of a version (YAML file)',
      auth: false,
      run: () => {},
    },
    { method: 'GET', path: `${P}/info`, purpose: 'service status and environment', auth: false, run: () => {} },
    {
      method: 'GET',
      path: `${P}/providers`,
      purpose: 'list providers',
      auth: true,
      query: [str('category')],
      run: (_s, c) => ok(c, listProviders(c)),
    },
    {
      method: 'GET',
      path: `${P}/connectors`,
      purpose: 'list connectors',
      auth: true,
      query: [str('capability'), str('providerId'), str('category')],
      run: (_s, c) => ok(c, listConnectors(c)),
    },
    {
      method: 'GET',
      path: `${P}/capabilities`,
      purpose: 'capability catalog',
      auth: true,
      run: (_s, c) => ok(c, listCapabilities()),
    },
    {
      method: 'POST',
      path: `${P}/capabilities`,
      purpose: 'check a capability of a connector',
      auth: true,
      body: BODIES.capabilityCheck,
      run: (_s, c) => ok(c, checkCapability(c)),
    },
    {
      method: 'GET',
      path: `${P}/connections`,
      purpose: 'connections of the tenant',
      auth: true,
      run: (s, c) => ok(c, listConnections(s, c)),
    },
    {
      method: 'POST',
      path: `${P}/connections`,
      purpose: 'create a connection',
      auth: true,
      key: true,
      body: BODIES.connectionCreate,
      run: (s, c) => idempotent(s, c, () => createConnection(s, c)),
    },
    {
      method: 'POST',
      path: `${P}/idempotency-keys`,
      purpose: 'generate an idempotency key',
      auth: true,
      body: BODIES.keyCreate,
      run: (_s, c) => ok(c, createKey(c)),
    },
    {
      method: 'GET',
      path: `${P}/stream`,
      purpose: 'status stream (Server-Sent Events)',
      auth: false,
      query: [{ name: 'cursor', required: false, schema: { type: 'integer', minimum: 0 } }],
      run: (s, c) => openStream(s, c),
    },
    {
      method: 'GET',
      path: `${P}/webhooks`,
      purpose: 'list webhook receivers',
      auth: true,
      run: (s, c) => ok(c, listWebhooks(s, c)),
    },
    {
      method: 'POST',
      path: `${P}/webhooks`,
      purpose: 'create a webhook receiver',
      auth: true,
      key: true,
      body: BODIES.webhookCreate,
      run: (s, c) => idempotent(s, c, () => createWebhook(s, c)),
    },
    {
      method: 'GET',
      path: `${P}/webhooks/{webhookId}`,
      purpose: 'show a webhook receiver',
      auth: true,
      run: (s, c) => ok(c, showWebhook(s, c)),
    },
    {
      method: 'DELETE',
      path: `${P}/webhooks/{webhookId}`,
      purpose: 'remove a webhook receiver',
      auth: true,
      key: true,
      run: (s, c) => idempotent(s, c, () => deleteWebhook(s, c)),
    },
    {
      method: 'GET',
      path: `${P}/webhooks/{webhookId}/delivery_attempts`,
      purpose: 'delivery log of a receiver',
      auth: true,
      since: '2026-07-01',
      run: (s, c) => ok(c, listDeliveries(s, c)),
    },
    {
      method: 'POST',
      path: `${P}/webhooks/{webhookId}/delivery_attempts/{attemptId}/retry`,
      purpose: 'trigger a logged delivery again',
      auth: true,
      key: true,
      since: '2026-07-01',
      run: (s, c) => idempotent(s, c, () => redeliver(s, c)),
    },
    {
      method: 'GET',
      path: `${P}/audit-log`,
      purpose: 'audit log of the tenant with its hash chain',
      auth: true,
      query: [
        { name: 'limit', required: false, schema: { type: 'integer', minimum: 1 } },
        paging === 'page'
          ? { name: 'page', required: false, schema: { type: 'integer', minimum: 1 } }
          : { name: 'cursor', required: false, schema: { type: 'string' } },
      ],
      run: (s, c) => listAudit(s, c),
    },
  ];
}

/** Matches `/webhooks/{webhookId}` against a path, filling ctx.params. */
export function match(route: Route, method: string, path: string, ctx: Ctx): boolean {
  if (route.method !== method) return false;
  const names: string[] = [];
  const re = new RegExp(
    `^${route.path.replace(/\{(\w+)\}/g, (_m, n: string) => {
      names.push(n);
      return '([^/]+)';
    })}$`,
  );
  const m = re.exec(path);
  if (!m) return false;
  ctx.params = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? '')]));
  return true;
}
