// The route table: one row per method and path, with whether it is authenticated and needs a key. The
// server, the self-description and the OpenAPI document all read this table, so they cannot disagree.

import { listAudit } from './audit.ts';
import type { Access } from './auth.ts';
import { listCapabilities, listConnectors, listProviders } from './catalog.ts';
import { checkCapability, createConnection, getConnection, listConnections } from './connections.ts';
import { getDelivery, listDeliveries, redeliver } from './deliveries.ts';
import { type Ctx, ok } from './http-kit.ts';
import { idempotent, issueKey } from './idempotency.ts';
import { describe, info } from './openapi.ts';
import type { State } from './state.ts';
import { openStream } from './stream.ts';
import { createWebhook, deleteWebhook, ownWebhook, view } from './webhooks.ts';

export interface Call {
  state: State;
  ctx: Ctx;
  access: Access;
  key: string;
  body: Record<string, unknown>;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  key?: boolean;
  /** Media type of the success answer (JSON unless said). */
  produces?: string;
  /** Since which interface version the route exists. */
  since?: string;
  /** The JSON body's fields (POST); none declared: the body may be empty, as for a trigger. */
  fields?: string[];
  run: (call: Call) => void | Promise<void>;
}

const P = '/api/public/v1';
const once = (c: Call, op: () => unknown) => idempotent(c.state, c.ctx, c.access, c.key, c.body, op);

export const ROUTES: Route[] = [
  { method: 'GET', path: P, purpose: 'self-description', auth: false, run: (c) => describe(c.ctx) },
  { method: 'GET', path: `${P}/openapi.json`, purpose: 'OpenAPI 3.1 document', auth: false, run: () => undefined },
  {
    method: 'GET',
    path: `${P}/openapi.yaml`,
    purpose: 'OpenAPI 3.1 document as YAML',
    auth: false,
    produces: 'application/yaml',
    run: () => undefined,
  },
  {
    method: 'GET',
    path: `${P}/openapi/{file}`,
    purpose: 'OpenAPI document of one version ({version}.json or {version}.yaml)',
    auth: false,
    run: () => undefined,
  },
  {
    method: 'GET',
    path: `${P}/info`,
    purpose: 'the calling access: tenant, client, purpose, owner, expiry',
    auth: true,
    run: (c) => info(c),
  },
  { method: 'GET', path: `${P}/providers`, purpose: 'list providers', auth: true, run: (c) => listProviders(c.ctx) },
  { method: 'GET', path: `${P}/connectors`, purpose: 'list connectors', auth: true, run: (c) => listConnectors(c.ctx) },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    run: (c) => listCapabilities(c.ctx),
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    fields: ['connectorId', 'capability', 'environment'],
    run: (c) => checkCapability(c.ctx, c.body),
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    run: (c) => listConnections(c.state, c.ctx, c.access),
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: true,
    fields: ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
    run: (c) => once(c, createConnection(c.state, c.ctx, c.access, c.body)),
  },
  {
    method: 'GET',
    path: `${P}/connections/{connectionId}`,
    purpose: 'one connection of the tenant',
    auth: true,
    run: (c) => getConnection(c.state, c.ctx, c.access, c.ctx.params.connectionId ?? ''),
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    fields: ['operation'],
    run: (c) => issueKey(c.state, c.ctx, c.body),
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    produces: 'text/event-stream',
    run: () => undefined,
  },
  {
    method: 'GET',
    path: `${P}/webhooks`,
    purpose: 'webhook receivers of the tenant',
    auth: true,
    run: (c) => {
      const hooks = [...c.state.webhooks.values()].filter((w) => w.tenant === c.access.tenant && w.active).map(view);
      ok(c.ctx, { count: hooks.length, webhooks: hooks });
    },
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver (the signing key is shown once)',
    auth: true,
    key: true,
    fields: ['url', 'events'],
    run: (c) => once(c, createWebhook(c.state, c.ctx, c.access, c.body)),
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'one webhook receiver',
    auth: true,
    run: (c) => ok(c.ctx, view(ownWebhook(c.state, c.access, c.ctx.params.webhookId ?? ''))),
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: true,
    run: (c) => once(c, deleteWebhook(c.state, c.ctx, c.access, c.ctx.params.webhookId ?? '')),
  },
  {
    method: 'GET',
    path: `${P}/webhook-deliveries`,
    purpose: 'delivery log (filters: webhookId, event, status)',
    auth: true,
    since: '2026-07-01',
    run: (c) => listDeliveries(c.state, c.ctx, c.access),
  },
  {
    method: 'GET',
    path: `${P}/webhook-deliveries/{deliveryId}`,
    purpose: 'one logged delivery',
    auth: true,
    since: '2026-07-01',
    run: (c) => getDelivery(c.state, c.ctx, c.access, c.ctx.params.deliveryId ?? ''),
  },
  {
    method: 'POST',
    path: `${P}/webhook-deliveries/{deliveryId}/redeliver`,
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: true,
    since: '2026-07-01',
    run: (c) => once(c, redeliverOp(c)),
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log with a hash-chain proof',
    auth: true,
    run: (c) => listAudit(c.state, c.ctx, c.access),
  },
];

function redeliverOp(c: Call) {
  return redeliver(c.state, c.ctx, c.access, c.ctx.params.deliveryId ?? '');
}

/** The routes answering `path`, with the path parameters of the first template that fits. */
export function match(path: string): { routes: Route[]; params: Record<string, string> } {
  const found: Route[] = [];
  let params: Record<string, string> = {};
  for (const r of ROUTES) {
    const a = r.path.split('/');
    const b = path.split('/');
    if (a.length !== b.length) continue;
    const p: Record<string, string> = {};
    const fits = a.every((seg, i) => {
      const actual = b[i] ?? '';
      if (seg.startsWith('{')) {
        p[seg.slice(1, -1)] = decodeURIComponent(actual);
        return actual !== '';
      }
      return seg === actual;
    });
    if (!fits) continue;
    // A literal route (/openapi.json) wins over a template that would also fit.
    if (found.length > 0 && found.some((f) => f.path !== r.path)) continue;
    found.push(r);
    params = p;
  }
  return { routes: found, params };
}
export { openStream };
