// cedar's route table: every interface endpoint plus cedar's own (/info, single reads, the delivery log,
// replays, removal). The self-description and the OpenAPI document are built from this table.
import type { Principal } from './auth.ts';
import type { Ctx } from './http-kit.ts';
import { ApiError } from './http-kit.ts';
import type { Deps, Handler } from './operations.ts';
import * as op from './operations.ts';

/** A "yes + key" operation: validate, then run once per key (replayed afterwards). */
export type Keyed = {
  body: (ctx: Ctx, params: string[]) => Promise<Record<string, unknown>>;
  run: (p: Principal, deps: Deps, body: Record<string, unknown>, requestId: string, params: string[]) => unknown;
};
export type Route = {
  method: string;
  path: string;
  auth: boolean;
  key: boolean;
  purpose: string;
  tag: string;
  handler?: Handler;
  keyed?: Keyed;
  keyOptional?: Keyed;
};

const noBody = async (): Promise<Record<string, unknown>> => ({});

export const ROUTES: Route[] = [
  { method: 'GET', path: '/api/public/v1', auth: false, key: false, purpose: 'self-description', tag: 'discovery' },
  {
    method: 'GET',
    path: '/api/public/v1/openapi.json',
    auth: false,
    key: false,
    purpose: 'OpenAPI 3.1 document',
    tag: 'discovery',
  },
  {
    method: 'GET',
    path: '/api/public/v1/info',
    auth: true,
    key: false,
    purpose: 'who am I: tenant, client, environment',
    tag: 'discovery',
    handler: op.info,
  },
  {
    method: 'GET',
    path: '/api/public/v1/providers',
    auth: true,
    key: false,
    purpose: 'list providers',
    tag: 'catalog',
    handler: op.listProviders,
  },
  {
    method: 'GET',
    path: '/api/public/v1/connectors',
    auth: true,
    key: false,
    purpose: 'list connectors',
    tag: 'catalog',
    handler: op.listConnectors,
  },
  {
    method: 'GET',
    path: '/api/public/v1/capabilities',
    auth: true,
    key: false,
    purpose: 'capability catalog',
    tag: 'catalog',
    handler: op.listCapabilities,
  },
  {
    method: 'POST',
    path: '/api/public/v1/capabilities',
    auth: true,
    key: false,
    purpose: 'check a capability of a connector',
    tag: 'catalog',
    handler: op.checkCapability,
  },
  {
    method: 'GET',
    path: '/api/public/v1/connections',
    auth: true,
    key: false,
    purpose: 'connections of the tenant',
    tag: 'connections',
    handler: op.listConnections,
  },
  {
    method: 'POST',
    path: '/api/public/v1/connections',
    auth: true,
    key: true,
    purpose: 'create a connection',
    tag: 'connections',
    keyed: { body: (ctx) => op.connectionBody(ctx), run: (p, d, b, r) => op.createConnection(p, d, b, r) },
  },
  {
    method: 'GET',
    path: '/api/public/v1/connections/{connectionId}',
    auth: true,
    key: false,
    purpose: 'one connection of the tenant',
    tag: 'connections',
    handler: op.getConnection,
  },
  {
    method: 'POST',
    path: '/api/public/v1/idempotency-keys',
    auth: true,
    key: false,
    purpose: 'generate an idempotency key',
    tag: 'idempotency',
    keyOptional: { body: (ctx) => op.keyBody(ctx), run: (_p, _d, b) => op.issueKey(b) },
  },
  {
    method: 'GET',
    path: '/api/public/v1/stream',
    auth: false,
    key: false,
    purpose: 'status stream (Server-Sent Events)',
    tag: 'events',
  },
  {
    method: 'POST',
    path: '/api/public/v1/webhooks',
    auth: true,
    key: true,
    purpose: 'create a webhook receiver',
    tag: 'webhooks',
    keyed: { body: (ctx) => op.webhookBody(ctx), run: (p, d, b, r) => op.registerWebhook(p, d, b, r) },
  },
  {
    method: 'GET',
    path: '/api/public/v1/webhooks',
    auth: true,
    key: false,
    purpose: 'webhook receivers of the tenant',
    tag: 'webhooks',
    handler: op.listWebhooks,
  },
  {
    method: 'GET',
    path: '/api/public/v1/webhooks/{webhookId}',
    auth: true,
    key: false,
    purpose: 'one webhook receiver',
    tag: 'webhooks',
    handler: op.getWebhook,
  },
  {
    method: 'DELETE',
    path: '/api/public/v1/webhooks/{webhookId}',
    auth: true,
    key: true,
    purpose: 'remove a webhook receiver',
    tag: 'webhooks',
    keyed: {
      body: noBody,
      run: (p, d, _b, r, [id]) => {
        const data = d.webhooks.remove(p.tenant, id ?? '');
        d.store.record(p.tenant, {
          action: 'webhook.delete',
          actor: p.client.id,
          targetType: 'webhook',
          targetId: id ?? '',
          requestId: r,
        });
        return data;
      },
    },
  },
  {
    method: 'POST',
    path: '/api/public/v1/webhooks/{webhookId}/signing-keys',
    auth: true,
    key: true,
    purpose: 'rotate the signing key of a receiver',
    tag: 'webhooks',
    keyed: {
      body: noBody,
      run: (p, d, _b, r, [id]) => {
        const data = d.webhooks.rotate(p.tenant, id ?? '');
        d.store.record(p.tenant, {
          action: 'webhook.rotate-key',
          actor: p.client.id,
          targetType: 'webhook',
          targetId: id ?? '',
          requestId: r,
        });
        return data;
      },
    },
  },
  {
    method: 'GET',
    path: '/api/public/v1/webhooks/{webhookId}/attempts',
    auth: true,
    key: false,
    purpose: 'delivery log of a receiver',
    tag: 'webhooks',
    handler: op.webhookAttempts,
  },
  {
    method: 'POST',
    path: '/api/public/v1/webhook-attempts/{deliveryId}/replay',
    auth: true,
    key: true,
    purpose: 'trigger a logged delivery again',
    tag: 'webhooks',
    keyed: {
      body: noBody,
      run: (p, d, _b, r, [id]) => {
        const data = d.webhooks.replay(p.tenant, id ?? '');
        d.store.record(p.tenant, {
          action: 'webhook.replay',
          actor: p.client.id,
          targetType: 'delivery',
          targetId: id ?? '',
          requestId: r,
        });
        return data;
      },
    },
  },
  {
    method: 'GET',
    path: '/api/public/v1/audit-log',
    auth: true,
    key: false,
    purpose: 'audit log with a proof of integrity',
    tag: 'audit',
    handler: op.auditLog,
  },
];

/** Finds the route of a method and path; params are the {…} segments. 404 for unknown paths and methods. */
export function match(method: string, path: string): { route: Route; params: string[] } {
  const parts = path.split('/');
  let pathKnown = false;
  for (const route of ROUTES) {
    const tpl = route.path.split('/');
    if (tpl.length !== parts.length) continue;
    const params: string[] = [];
    const ok = tpl.every((t, i) => {
      const seg = parts[i] ?? '';
      if (t.startsWith('{')) {
        params.push(decodeURIComponent(seg));
        return /^[A-Za-z0-9_-]{1,64}$/.test(seg);
      }
      return t === seg;
    });
    if (!ok) continue;
    pathKnown = true;
    if (route.method === method || (method === 'HEAD' && route.method === 'GET')) return { route, params };
  }
  throw new ApiError(
    'not_found',
    pathKnown ? `${method} is not offered on this path` : 'no such path',
    'see GET /api/public/v1 for the routes',
  );
}
