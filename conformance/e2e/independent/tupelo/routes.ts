// The route table: one row per operation (method, path, auth, key), read by the router, the
// self-description and the OpenAPI builder alike.
import { appendAudit, readAudit } from './audit.ts';
import { CAPABILITIES, CONNECTORS, PROVIDERS } from './catalog.ts';
import { checkCapability, createConnection, listConnections, validateConnection } from './connections.ts';
import { ApiError, str } from './http.ts';
import { generateKey, KEY_TTL_MS, once } from './idempotency.ts';
import type { App } from './state.ts';
import { createWebhook, deleteHook, deliveryLog, publicHook, retrigger } from './webhooks.ts';

export interface Call {
  app: App;
  tenant: string;
  clientId: string;
  tokenExp: number;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
  key?: string;
  requestId: string;
  method: string;
  path: string;
}
export interface Result {
  data: unknown;
  replayed?: boolean;
}
export interface Route {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  /** 'required': 428 without; 'optional': honoured when sent. */
  key?: 'required' | 'optional';
  body?: boolean;
  handle?: (c: Call) => Promise<Result> | Result;
}

const P = '/api/public/v1';
const scope = (c: Call) => `${c.clientId}|${c.tenant}`;

/** Runs a modifying operation under its idempotency key (when one was sent) and audits first effects. */
async function keyed(c: Call, action: string, fn: () => { data: unknown; target: string }): Promise<Result> {
  const run = () => {
    const r = fn();
    appendAudit(c.app, c.tenant, {
      action,
      actor: c.clientId,
      target: r.target,
      requestId: c.requestId,
      idempotencyKey: c.key,
    });
    return r.data;
  };
  if (!c.key) return { data: run() };
  return once(c.app, scope(c), c.key, { m: c.method, p: c.path, b: c.body }, run);
}

export const ROUTES: Route[] = [
  { method: 'GET', path: P, purpose: 'self-description', auth: false },
  { method: 'GET', path: `${P}/openapi.json`, purpose: 'OpenAPI 3.1 document', auth: false },
  { method: 'GET', path: `${P}/openapi.yaml`, purpose: 'OpenAPI 3.1 document as YAML', auth: false },
  { method: 'GET', path: `${P}/stream`, purpose: 'status stream (Server-Sent Events)', auth: false },
  {
    method: 'GET',
    path: `${P}/info`,
    purpose: 'who is calling: tenant, client, token expiry',
    auth: true,
    handle: (c) => ({
      data: {
        tenant: c.tenant,
        clientId: c.clientId,
        environment: 'sandbox',
        tokenExpiresAt: new Date(c.tokenExp * 1000).toISOString(),
        versions: ['2026-06-12', '2026-07-01'],
      },
    }),
  },
  {
    method: 'GET',
    path: `${P}/providers`,
    purpose: 'list providers',
    auth: true,
    handle: (c) => {
      const cat = c.query.get('category');
      const providers = PROVIDERS.filter((p) => !cat || p.category === cat);
      return { data: { count: providers.length, providers } };
    },
  },
  {
    method: 'GET',
    path: `${P}/connectors`,
    purpose: 'list connectors',
    auth: true,
    handle: (c) => {
      const [cap, prov, cat] = [c.query.get('capability'), c.query.get('providerId'), c.query.get('category')];
      const connectors = CONNECTORS.filter(
        (x) =>
          (!cap || x.capabilities.includes(cap)) && (!prov || x.providerId === prov) && (!cat || x.category === cat),
      );
      return { data: { count: connectors.length, connectors } };
    },
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    handle: () => ({ data: { count: CAPABILITIES.length, capabilities: CAPABILITIES } }),
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    body: true,
    handle: (c) => ({ data: checkCapability(c.body) }),
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    handle: (c) => ({ data: listConnections(c.app, c.tenant) }),
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: 'required',
    body: true,
    handle: (c) => {
      const input = validateConnection(c.body);
      return keyed(c, 'connection.create', () => {
        const conn = createConnection(c.app, c.tenant, input);
        return { data: conn, target: conn.id };
      });
    },
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    body: true,
    handle: (c) => {
      const operation = str(c.body, 'operation', 2, 80);
      return {
        data: { idempotencyKey: generateKey(), operation, expiresAt: new Date(Date.now() + KEY_TTL_MS).toISOString() },
      };
    },
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    key: 'required',
    body: true,
    handle: async (c) => {
      const r = await keyed(c, 'webhook.create', () => {
        const h = createWebhook(c.app, c.tenant, c.body);
        return { data: { ...publicHook(h), signingKey: h.secret }, target: h.id };
      });
      // The signing key is issued exactly once: a replay answers the same receiver without it.
      if (r.replayed) {
        const { signingKey: _omit, ...rest } = r.data as Record<string, unknown>;
        return { data: { ...rest, signingKeyIssued: 'earlier' }, replayed: true };
      }
      return r;
    },
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: 'required',
    handle: (c) =>
      keyed(c, 'webhook.delete', () => ({
        data: deleteHook(c.app, c.tenant, c.params.webhookId ?? ''),
        target: c.params.webhookId ?? '',
      })),
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/delivery-log`,
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    handle: (c) => ({ data: deliveryLog(c.app, c.tenant, c.params.webhookId ?? '', c.query.get('status')) }),
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/delivery-log/{deliveryId}/retrigger`,
    purpose: 'trigger one delivery again',
    auth: true,
    key: 'required',
    handle: (c) =>
      keyed(c, 'webhook.delivery.retrigger', () => {
        const d = retrigger(c.app, c.tenant, c.params.webhookId ?? '', c.params.deliveryId ?? '');
        return { data: { delivery: d }, target: d.id };
      }),
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log with a proof of integrity',
    auth: true,
    handle: (c) => ({ data: readAudit(c.app, c.tenant, c.query) }),
  },
];

/** Finds the route of a method and path; a known path with another method is reported as such. */
export function match(
  method: string,
  path: string,
): { route?: Route; params: Record<string, string>; pathKnown: boolean } {
  let pathKnown = false;
  for (const route of ROUTES) {
    const a = route.path.split('/');
    const b = path.split('/');
    if (a.length !== b.length) continue;
    const params: Record<string, string> = {};
    const ok = a.every((seg, i) => {
      const v = b[i] ?? '';
      if (seg.startsWith('{')) {
        params[seg.slice(1, -1)] = decodeURIComponent(v);
        return v !== '';
      }
      return seg === v;
    });
    if (!ok) continue;
    pathKnown = true;
    if (route.method === method || (method === 'HEAD' && route.method === 'GET')) return { route, params, pathKnown };
  }
  if (pathKnown) throw new ApiError('not_found', 'This method is not offered on this path.');
  return { params: {}, pathKnown };
}

export { ApiError };
