// The route table, as `app.routes` prints it: Vapor's case-sensitive path components with `:param`
// placeholders. The self-description, /info and the OpenAPI document are all read from this one list.
import { auditLog } from './audit.ts';
import { listAttempts, retryAttempt } from './deliveries.ts';
import { type Ctx, CURRENT_VERSION, ok, VERSIONS } from './http.ts';
import { issueKey } from './limits.ts';
import { openapiJson, openapiVersioned } from './openapi-files.ts';
import {
  checkCapability,
  createConnection,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
} from './resources.ts';
import type { Store } from './state.ts';
import { stream } from './stream.ts';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks } from './webhooks.ts';

export const PREFIX = '/api/public/v1';

export interface Route {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  key?: boolean;
  handle: (ctx: Ctx, store: Store) => void | Promise<void>;
}

export const ROUTES: Route[] = [
  { method: 'GET', path: '', purpose: 'self-description', auth: false, handle: (c) => describe(c) },
  { method: 'GET', path: '/openapi.json', purpose: 'OpenAPI 3.1 document', auth: false, handle: openapiJson },
  {
    method: 'GET',
    path: '/openapi/:file',
    purpose: 'OpenAPI per version (.json, .yaml)',
    auth: false,
    handle: openapiVersioned,
  },
  { method: 'GET', path: '/info', purpose: 'service and caller information', auth: true, handle: (c) => info(c) },
  { method: 'GET', path: '/providers', purpose: 'list providers', auth: true, handle: listProviders },
  { method: 'GET', path: '/connectors', purpose: 'list connectors', auth: true, handle: listConnectors },
  { method: 'GET', path: '/capabilities', purpose: 'capability catalog', auth: true, handle: listCapabilities },
  {
    method: 'POST',
    path: '/capabilities',
    purpose: 'check a capability of a connector',
    auth: true,
    handle: checkCapability,
  },
  { method: 'GET', path: '/connections', purpose: 'connections of the tenant', auth: true, handle: listConnections },
  {
    method: 'POST',
    path: '/connections',
    purpose: 'create a connection',
    auth: true,
    key: true,
    handle: createConnection,
  },
  { method: 'POST', path: '/idempotency-keys', purpose: 'generate an idempotency key', auth: true, handle: issueKey },
  { method: 'GET', path: '/stream', purpose: 'status stream (Server-Sent Events)', auth: false, handle: stream },
  { method: 'GET', path: '/webhooks', purpose: 'list webhook receivers', auth: true, handle: listWebhooks },
  {
    method: 'POST',
    path: '/webhooks',
    purpose: 'create a webhook receiver',
    auth: true,
    key: true,
    handle: createWebhook,
  },
  { method: 'GET', path: '/webhooks/:webhookID', purpose: 'read a webhook receiver', auth: true, handle: getWebhook },
  {
    method: 'DELETE',
    path: '/webhooks/:webhookID',
    purpose: 'remove a webhook receiver',
    auth: true,
    key: true,
    handle: deleteWebhook,
  },
  {
    method: 'GET',
    path: '/webhooks/:webhookID/attempts',
    purpose: 'delivery log of a receiver',
    auth: true,
    handle: listAttempts,
  },
  {
    method: 'POST',
    path: '/webhooks/:webhookID/attempts/:attemptID/retry',
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: true,
    handle: retryAttempt,
  },
  { method: 'GET', path: '/audit-log', purpose: 'audit log with a signed Merkle proof', auth: true, handle: auditLog },
];

/** Matches component by component, case-sensitively; empty components (a trailing slash) are dropped as Vapor does. */
export function match(method: string, path: string): { route: Route; params: Record<string, string> } | null {
  const parts = path.split('/').filter(Boolean);
  for (const route of ROUTES) {
    const want = `${PREFIX}${route.path}`.split('/').filter(Boolean);
    if (route.method !== method || want.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const hit = want.every((w, i) => {
      const p = parts[i] ?? '';
      if (w.startsWith(':')) params[w.slice(1)] = decodeURIComponent(p);
      return w.startsWith(':') || w === p;
    });
    if (hit) return { route, params };
  }
  return null;
}

/** Vapor's `:param` written as the contract's `{param}`. */
export const publicPath = (path: string): string => `${PREFIX}${path}`.replace(/:(\w+)/g, '{$1}');

function describe(ctx: Ctx): void {
  ok(ctx, {
    service: 'Rosewood Network Connections',
    surface: 'public',
    version: CURRENT_VERSION,
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenEndpoint: `${ctx.base}/oauth2/token`,
      headers: ['Authorization', 'x-service-tenant'],
    },
    idempotency: { header: 'Idempotency-Key', pattern: '^[A-Za-z0-9._:-]{8,128}$', retentionHours: 24 },
    // The per-version downloads, as Vapor serves them from Public/ by FileMiddleware.
    openapi: VERSIONS.flatMap((v) => [`${PREFIX}/openapi/${v}.json`, `${PREFIX}/openapi/${v}.yaml`]),
    webhooks: { events: ['connection.created', 'connection.updated', 'order.created', 'order.paid'] },
    routes: ROUTES.map((r) => ({ method: r.method, path: publicPath(r.path), purpose: r.purpose, auth: r.auth })),
  });
}

function info(ctx: Ctx): void {
  ok(ctx, {
    service: 'rosewood',
    version: CURRENT_VERSION,
    client: ctx.clientId,
    tenant: ctx.tenant,
    environment: 'sandbox',
  });
}
