// The route table: one row per operation, read by the router, the OpenAPI export and the self-description
// (built here from it). `key`: 'required' for "yes + key" calls, 'optional' where a sent key is honoured.
import type { Call } from './http-kit.ts';
import { BASE_PATH, CURRENT_VERSION } from './http-kit.ts';
import { REPLAY_WINDOW_MS } from './idempotency.ts';

export interface Route {
  method: 'GET' | 'POST';
  /** Relative to /api/public/v1 ('' is the self-description). */
  path: string;
  operationId: string;
  purpose: string;
  auth: boolean;
  key: 'required' | 'optional' | 'none';
}

export const ROUTES: Route[] = [
  { method: 'GET', path: '', operationId: 'describe', purpose: 'self-description', auth: false, key: 'none' },
  {
    method: 'GET',
    path: '/openapi.json',
    operationId: 'openapi',
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    key: 'none',
  },
  {
    method: 'GET',
    path: '/info',
    operationId: 'info',
    purpose: 'the calling access, tenant and environment',
    auth: true,
    key: 'none',
  },
  {
    method: 'GET',
    path: '/providers',
    operationId: 'listProviders',
    purpose: 'list providers',
    auth: true,
    key: 'none',
  },
  {
    method: 'GET',
    path: '/connectors',
    operationId: 'listConnectors',
    purpose: 'list connectors',
    auth: true,
    key: 'none',
  },
  {
    method: 'GET',
    path: '/capabilities',
    operationId: 'listCapabilities',
    purpose: 'capability catalog',
    auth: true,
    key: 'none',
  },
  {
    method: 'POST',
    path: '/capabilities',
    operationId: 'checkCapability',
    purpose: 'check a capability of a connector',
    auth: true,
    key: 'optional',
  },
  {
    method: 'GET',
    path: '/connections',
    operationId: 'listConnections',
    purpose: 'connections of the tenant',
    auth: true,
    key: 'none',
  },
  {
    method: 'POST',
    path: '/connections',
    operationId: 'createConnection',
    purpose: 'create a connection',
    auth: true,
    key: 'required',
  },
  {
    method: 'POST',
    path: '/idempotency-keys',
    operationId: 'createIdempotencyKey',
    purpose: 'generate an idempotency key',
    auth: true,
    key: 'optional',
  },
  {
    method: 'GET',
    path: '/stream',
    operationId: 'stream',
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    key: 'none',
  },
  {
    method: 'POST',
    path: '/webhooks',
    operationId: 'createWebhook',
    purpose: 'create a webhook receiver',
    auth: true,
    key: 'required',
  },
  {
    method: 'GET',
    path: '/webhook-deliveries',
    operationId: 'listWebhookDeliveries',
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    key: 'none',
  },
  {
    method: 'POST',
    path: '/webhook-deliveries/{deliveryId}/retry',
    operationId: 'retryWebhookDelivery',
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: 'required',
  },
  {
    method: 'GET',
    path: '/audit-log',
    operationId: 'readAuditLog',
    purpose: 'audit log with a proof of integrity',
    auth: true,
    key: 'none',
  },
];

/** The route and its path parameters for a path below the base path, if any route has the path. */
export function match(
  method: string,
  rel: string,
): { route: Route | undefined; params: Record<string, string>; pathKnown: boolean } {
  let pathKnown = false;
  for (const route of ROUTES) {
    const pattern = new RegExp(`^${route.path.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`);
    const m = pattern.exec(rel);
    if (!m) continue;
    pathKnown = true;
    if (route.method === method) return { route, params: { ...(m.groups ?? {}) }, pathKnown };
  }
  return { route: undefined, params: {}, pathKnown };
}

/** GET /api/public/v1: the service, how to authenticate and use keys, every route it serves (with /info and the delivery log). */
export function selfDescription(call: Call, routes: Route[], _tokenUrl: string) {
  return {
    service: 'network-connections',
    surface: 'public',
    version: call.version === CURRENT_VERSION ? CURRENT_VERSION : call.version,
    authentication: {
      scheme: 'Bearer',
      flows: ['client_credentials'],
      tokenEndpointAuthMethods: ['client_secret_post'],
      // The token URL is not published here: it is handed over with the client credentials.
      tokenUrl: 'given at onboarding',
      tokenLifetimeSeconds: 3600,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      requiredOn: routes.filter((r) => r.key === 'required').map((r) => `${r.method} ${BASE_PATH}${r.path}`),
      replayWindowSeconds: REPLAY_WINDOW_MS / 1000,
    },
    routes: routes.map((r) => ({ method: r.method, path: `${BASE_PATH}${r.path}`, purpose: r.purpose, auth: r.auth })),
  };
}
