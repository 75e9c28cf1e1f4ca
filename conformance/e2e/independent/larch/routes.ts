// The route table: one row per operation, read by the dispatcher, the self-description and the OpenAPI document.
import { listAudit } from './audit.ts';
import type { Principal } from './auth.ts';
import type { Ctx } from './http-kit.ts';
import {
  type Body,
  checkCapability,
  createConnection,
  issueKey,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
} from './operations.ts';
import type { State } from './store.ts';
import { deleteWebhook, getDelivery, listDeliveries, listWebhooks, redeliver, registerWebhook } from './webhooks.ts';

export type Call = { state: State; ctx: Ctx; who: Principal; key: string | undefined; body: Body; params: string[] };

export type Route = {
  method: string;
  /** Path below /api/public/v1, `{name}` for a parameter. */
  path: string;
  purpose: string;
  auth: boolean;
  /** required: 428 without Idempotency-Key; optional: honoured when sent; none: ignored. */
  key: 'required' | 'optional' | 'none';
  /** Whether a JSON body is read (POST with a schema). */
  body: boolean;
  /** Not part of the interface's table: larch's own addition. */
  extension?: boolean;
  run?: (c: Call) => void;
};

export const ROUTES: Route[] = [
  { method: 'GET', path: '', purpose: 'self-description', auth: false, key: 'none', body: false },
  { method: 'GET', path: '/openapi.json', purpose: 'OpenAPI 3.1 document', auth: false, key: 'none', body: false },
  {
    method: 'GET',
    path: '/openapi/2026-07-01.json',
    purpose: 'OpenAPI 3.1 document of 2026-07-01 (download)',
    auth: false,
    key: 'none',
    body: false,
    extension: true,
  },
  {
    method: 'GET',
    path: '/openapi/2026-07-01.yaml',
    purpose: 'OpenAPI 3.1 document of 2026-07-01 as YAML (download)',
    auth: false,
    key: 'none',
    body: false,
    extension: true,
  },
  {
    method: 'GET',
    path: '/openapi/2026-06-12.json',
    purpose: 'OpenAPI 3.1 document of 2026-06-12 (download)',
    auth: false,
    key: 'none',
    body: false,
    extension: true,
  },
  {
    method: 'GET',
    path: '/openapi/2026-06-12.yaml',
    purpose: 'OpenAPI 3.1 document of 2026-06-12 as YAML (download)',
    auth: false,
    key: 'none',
    body: false,
    extension: true,
  },
  {
    method: 'GET',
    path: '/providers',
    purpose: 'list providers',
    auth: true,
    key: 'none',
    body: false,
    run: (c) => listProviders(c.ctx),
  },
  {
    method: 'GET',
    path: '/connectors',
    purpose: 'list connectors',
    auth: true,
    key: 'none',
    body: false,
    run: (c) => listConnectors(c.ctx),
  },
  {
    method: 'GET',
    path: '/capabilities',
    purpose: 'capability catalog',
    auth: true,
    key: 'none',
    body: false,
    run: (c) => listCapabilities(c.ctx),
  },
  {
    method: 'POST',
    path: '/capabilities',
    purpose: 'check a capability of a connector',
    auth: true,
    key: 'none',
    body: true,
    run: (c) => checkCapability(c.state, c.ctx, c.body),
  },
  {
    method: 'GET',
    path: '/connections',
    purpose: 'connections of the tenant',
    auth: true,
    key: 'none',
    body: false,
    run: (c) => listConnections(c.state, c.ctx, c.who),
  },
  {
    method: 'POST',
    path: '/connections',
    purpose: 'create a connection',
    auth: true,
    key: 'required',
    body: true,
    run: (c) => createConnection(c.state, c.ctx, c.who, c.key, c.body),
  },
  {
    method: 'POST',
    path: '/idempotency-keys',
    purpose: 'generate an idempotency key',
    auth: true,
    key: 'optional',
    body: true,
    run: (c) => issueKey(c.state, c.ctx, c.who, c.key, c.body),
  },
  {
    method: 'GET',
    path: '/stream',
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    key: 'none',
    body: false,
  },
  {
    method: 'POST',
    path: '/webhooks',
    purpose: 'create a webhook receiver',
    auth: true,
    key: 'required',
    body: true,
    run: (c) => registerWebhook(c.state, c.ctx, c.who, c.key, c.body),
  },
  {
    method: 'GET',
    path: '/audit-log',
    purpose: 'audit log with a signed page digest',
    auth: true,
    key: 'none',
    body: false,
    run: (c) => listAudit(c.state, c.ctx, c.who),
  },
  {
    method: 'GET',
    path: '/info',
    purpose: 'who is calling: client, tenant, environment, token expiry',
    auth: true,
    key: 'none',
    body: false,
    extension: true,
  },
  {
    method: 'GET',
    path: '/webhooks',
    purpose: 'webhook receivers of the tenant',
    auth: true,
    key: 'none',
    body: false,
    extension: true,
    run: (c) => listWebhooks(c.state, c.ctx, c.who),
  },
  {
    method: 'DELETE',
    path: '/webhooks/{webhookId}',
    purpose: 'remove a webhook receiver',
    auth: true,
    key: 'required',
    body: false,
    extension: true,
    run: (c) => deleteWebhook(c.state, c.ctx, c.who, c.key, c.params[0] ?? ''),
  },
  {
    method: 'GET',
    path: '/webhook-deliveries',
    purpose: 'webhook delivery log (filter by webhookId; page, size)',
    auth: true,
    key: 'none',
    body: false,
    extension: true,
    run: (c) => listDeliveries(c.state, c.ctx, c.who),
  },
  {
    method: 'GET',
    path: '/webhook-deliveries/{deliveryId}',
    purpose: 'one logged webhook delivery',
    auth: true,
    key: 'none',
    body: false,
    extension: true,
    run: (c) => getDelivery(c.state, c.ctx, c.who, c.params[0] ?? ''),
  },
  {
    method: 'POST',
    path: '/webhook-deliveries/{deliveryId}/redeliver',
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: 'required',
    body: false,
    extension: true,
    run: (c) => redeliver(c.state, c.ctx, c.who, c.key, c.params[0] ?? ''),
  },
];

function matches(pattern: string, path: string): string[] | null {
  const a = pattern.split('/');
  const b = path.split('/');
  if (a.length !== b.length) return null;
  const params: string[] = [];
  for (let i = 0; i < a.length; i++) {
    const seg = a[i] ?? '';
    const val = b[i] ?? '';
    if (seg.startsWith('{')) {
      if (!/^[0-9]{1,20}$/.test(val)) return null;
      params.push(val);
    } else if (seg !== val) return null;
  }
  return params;
}

/** The route for a path below the base, and whether the path exists under another method. */
export function findRoute(method: string, sub: string): { route?: Route; params: string[]; pathKnown: boolean } {
  let pathKnown = false;
  for (const r of ROUTES) {
    const p = matches(r.path, sub);
    if (!p) continue;
    pathKnown = true;
    if (r.method === method || (method === 'HEAD' && r.method === 'GET')) return { route: r, params: p, pathKnown };
  }
  return { params: [], pathKnown };
}
