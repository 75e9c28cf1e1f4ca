// The hand-written router: a constant table of (method, pattern, handler), matched segment by segment,
// `{name}` segments captured. The self-description lists the same table.

import { auditLog } from './audit.ts';
import { tokenEndpoint } from './auth.ts';
import { deliveryLog, resend } from './deliveries.ts';
import { type Ctx, ok } from './http.ts';
import { openapiFile, openapiJson } from './openapi.ts';
import {
  checkCapability,
  createConnection,
  createKey,
  info,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
} from './resources.ts';
import { BASE, ENVIRONMENTS, EVENT_NAMES, VERSIONS } from './state.ts';
import { stream } from './stream.ts';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks } from './webhooks.ts';

export interface Route {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  handle: (ctx: Ctx, params: Record<string, string>) => void | Promise<void>;
}

const r = (method: string, path: string, purpose: string, auth: boolean, handle: Route['handle']): Route => ({
  method,
  path: `${BASE}${path}`,
  purpose,
  auth,
  handle,
});

export const ROUTES: Route[] = [
  r('GET', '', 'self-description', false, (ctx) => selfDescription(ctx)),
  r('GET', '/openapi.json', 'OpenAPI 3.1 document', false, (ctx) => openapiJson(ctx)),
  ...VERSIONS.flatMap((v) =>
    (['json', 'yaml'] as const).map((ext) =>
      r('GET', `/openapi/${v}.${ext}`, `OpenAPI 3.1 file of ${v} (${ext})`, false, (ctx) =>
        openapiFile(ctx, `${v}.${ext}`),
      ),
    ),
  ),
  r('GET', '/info', 'caller, tenant and environment', true, (ctx) => info(ctx)),
  r('GET', '/providers', 'list providers', true, (ctx) => listProviders(ctx)),
  r('GET', '/connectors', 'list connectors', true, (ctx) => listConnectors(ctx)),
  r('GET', '/capabilities', 'capability catalog', true, (ctx) => listCapabilities(ctx)),
  r('POST', '/capabilities', 'check a capability of a connector', true, (ctx) => checkCapability(ctx)),
  r('GET', '/connections', 'connections of the tenant', true, (ctx) => listConnections(ctx)),
  r('POST', '/connections', 'create a connection', true, (ctx) => createConnection(ctx)),
  r('POST', '/idempotency-keys', 'generate an idempotency key', true, (ctx) => createKey(ctx)),
  r('GET', '/stream', 'status stream (Server-Sent Events)', false, (ctx) => stream(ctx)),
  r('GET', '/webhooks', 'list webhook receivers', true, (ctx) => listWebhooks(ctx)),
  r('POST', '/webhooks', 'create a webhook receiver', true, (ctx) => createWebhook(ctx)),
  r('GET', '/webhooks/{webhook_id}', 'one webhook receiver', true, (ctx, p) => getWebhook(ctx, p.webhook_id ?? '')),
  r('DELETE', '/webhooks/{webhook_id}', 'remove a webhook receiver', true, (ctx, p) =>
    deleteWebhook(ctx, p.webhook_id ?? ''),
  ),
  r('GET', '/webhooks/{webhook_id}/delivery-log', 'delivery log of a receiver', true, (ctx, p) =>
    deliveryLog(ctx, p.webhook_id ?? ''),
  ),
  r(
    'POST',
    '/webhooks/{webhook_id}/delivery-log/{delivery_id}/resend',
    'send a logged delivery again',
    true,
    (ctx, p) => resend(ctx, p.webhook_id ?? '', p.delivery_id ?? ''),
  ),
  r('GET', '/audit-log', 'audit log with hash chain', true, (ctx) => auditLog(ctx)),
];

export const TOKEN_ROUTE: Route = {
  method: 'POST',
  path: '/auth/token',
  purpose: 'OAuth 2.1 token endpoint',
  auth: false,
  handle: (ctx) => tokenEndpoint(ctx),
};

/** The route and its captured segments, or why none matched (path known, method not). */
export function match(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
  const segs = path.replace(/\/+$/, '').split('/');
  for (const route of [...ROUTES, TOKEN_ROUTE]) {
    if (route.method !== method) continue;
    const pat = route.path.split('/');
    if (pat.length !== segs.length) continue;
    const params: Record<string, string> = {};
    const hit = pat.every((p, i) => {
      const s = segs[i] ?? '';
      if (p.startsWith('{')) {
        params[p.slice(1, -1)] = decodeURIComponent(s);
        return s !== '';
      }
      return p === s;
    });
    if (hit) return { route, params };
  }
  return undefined;
}

function selfDescription(ctx: Ctx): void {
  ok(ctx, {
    service: 'network-connections',
    surface: 'public',
    version: ctx.version,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: '/auth/token',
      tokenEndpointAuthMethods: ['client_secret_basic', 'client_secret_post'],
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      ttl_seconds: 86_400,
      scope: 'tenant+method+path',
    },
    environments: ENVIRONMENTS,
    webhooks: { events: EVENT_NAMES, signatureHeader: 'X-Boxelder-Signature', deliveryHeader: 'X-Boxelder-Delivery' },
    routes: ROUTES.map(({ method, path, purpose, auth }) => ({ method, path, purpose, auth })),
  });
}
