// The route table (method, path template, purpose, auth, idempotency key rule, handler) and the
// self-description built from it.
import { REALM_PATH, TOKEN_PATH } from './auth.ts';
import { checkCapability, info, listCapabilities, listConnectors, listProviders } from './handlers-catalog.ts';
import { createConnection, createIdempotencyKey, getConnection, listConnections } from './handlers-connections.ts';
import {
  createWebhook,
  deleteWebhook,
  getDelivery,
  getWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
} from './handlers-webhooks.ts';
import { describeRoutes, openapiDocument, openapiFile } from './openapi.ts';
import type { App } from './state.ts';
import type { Reply, RoutingContext } from './types.ts';
import { API, CURRENT_VERSION, SERVICE, VERSIONS } from './util.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

export interface Route {
  method: string;
  /** Path under /api/public/v1 with {params}; '' is the self-description. */
  path: string;
  purpose: string;
  auth: boolean;
  key: 'required' | 'optional' | 'none';
  handler: (ctx: RoutingContext, app: App) => Reply | undefined | Promise<Reply | undefined>;
}

export const ROUTES: Route[] = [
  {
    method: 'GET',
    path: '',
    purpose: 'self-description',
    auth: false,
    key: 'none',
    handler: (c, a) => selfDescription(c, a),
  },
  {
    method: 'GET',
    path: '/openapi.json',
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    key: 'none',
    handler: (c) => openapiDocument(c),
  },
  {
    method: 'GET',
    path: '/openapi/{file}',
    purpose: 'OpenAPI file per version (JSON or YAML)',
    auth: false,
    key: 'none',
    handler: (c) => openapiFile(c),
  },
  {
    method: 'GET',
    path: '/info',
    purpose: 'service information',
    auth: false,
    key: 'none',
    handler: (c, a) => info(c, a),
  },
  {
    method: 'GET',
    path: '/providers',
    purpose: 'list providers',
    auth: true,
    key: 'none',
    handler: (c) => listProviders(c),
  },
  {
    method: 'GET',
    path: '/connectors',
    purpose: 'list connectors',
    auth: true,
    key: 'none',
    handler: (c) => listConnectors(c),
  },
  {
    method: 'GET',
    path: '/capabilities',
    purpose: 'capability catalog',
    auth: true,
    key: 'none',
    handler: () => listCapabilities(),
  },
  {
    method: 'POST',
    path: '/capabilities',
    purpose: 'check a capability of a connector',
    auth: true,
    key: 'optional',
    handler: (c) => checkCapability(c),
  },
  {
    method: 'GET',
    path: '/connections',
    purpose: 'connections of the tenant',
    auth: true,
    key: 'none',
    handler: (c, a) => listConnections(c, a),
  },
  {
    method: 'POST',
    path: '/connections',
    purpose: 'create a connection',
    auth: true,
    key: 'required',
    handler: (c, a) => createConnection(c, a),
  },
  {
    method: 'GET',
    path: '/connections/{connectionId}',
    purpose: 'one connection of the tenant',
    auth: true,
    key: 'none',
    handler: (c, a) => getConnection(c, a),
  },
  {
    method: 'POST',
    path: '/idempotency-keys',
    purpose: 'generate an idempotency key',
    auth: true,
    key: 'optional',
    handler: (c, a) => createIdempotencyKey(c, a),
  },
  {
    method: 'GET',
    path: '/stream',
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    key: 'none',
    handler: (c, a) => a.stream.handle(c, a.realm, a.limiter),
  },
  {
    method: 'POST',
    path: '/webhooks',
    purpose: 'create a webhook receiver',
    auth: true,
    key: 'required',
    handler: (c, a) => createWebhook(c, a),
  },
  {
    method: 'GET',
    path: '/webhooks',
    purpose: 'webhook receivers of the tenant',
    auth: true,
    key: 'none',
    handler: (c, a) => listWebhooks(c, a),
  },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}',
    purpose: 'one webhook receiver',
    auth: true,
    key: 'none',
    handler: (c, a) => getWebhook(c, a),
  },
  {
    method: 'DELETE',
    path: '/webhooks/{webhookId}',
    purpose: 'remove a webhook receiver',
    auth: true,
    key: 'required',
    handler: (c, a) => deleteWebhook(c, a),
  },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}/deliveries',
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    key: 'none',
    handler: (c, a) => listDeliveries(c, a),
  },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}/deliveries/{deliveryId}',
    purpose: 'one logged delivery',
    auth: true,
    key: 'none',
    handler: (c, a) => getDelivery(c, a),
  },
  {
    method: 'POST',
    path: '/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: 'required',
    handler: (c, a) => retryDelivery(c, a),
  },
  {
    method: 'GET',
    path: '/audit-log',
    purpose: 'audit log with hash chain and signed checkpoints',
    auth: true,
    key: 'none',
    handler: (c, a) => a.audit.list(c),
  },
];

/** Matches a path under /api/public/v1 against the table: the route and its parameters, or why not. */
export function match(
  method: string,
  sub: string,
): { route: Route; params: Record<string, string> } | 'method' | undefined {
  let pathMatched = false;
  for (const route of ROUTES) {
    const names: string[] = [];
    const re = new RegExp(
      `^${route.path.replace(/\{(\w+)\}/g, (_m, n: string) => {
        names.push(n);
        return '([^/]+)';
      })}$`,
    );
    const m = re.exec(sub);
    if (!m) continue;
    pathMatched = true;
    if (route.method !== method) continue;
    const params: Record<string, string> = {};
    names.forEach((n, i) => {
      params[n] = decodeURIComponent(m[i + 1] ?? '');
    });
    return { route, params };
  }
  return pathMatched ? 'method' : undefined;
}

function selfDescription(ctx: RoutingContext, _app: App): Reply {
  const origin = `http://${ctx.req.headers.host ?? '127.0.0.1'}`;
  return {
    data: {
      service: SERVICE,
      surface: 'public',
      version: ctx.version,
      versions: VERSIONS,
      currentVersion: CURRENT_VERSION,
      authentication: {
        type: 'oauth2',
        flow: 'client_credentials',
        tokenEndpoint: `${origin}${TOKEN_PATH}`,
        issuer: `${origin}${REALM_PATH}`,
        tokenFormat: 'JWT (HS256)',
        headers: { authorization: 'Bearer <token>', tenant: 'x-service-tenant' },
      },
      idempotency: {
        header: 'Idempotency-Key',
        pattern: '^[A-Za-z0-9._:-]{8,128}$',
        requiredOn: ROUTES.filter((r) => r.key === 'required').map((r) => `${r.method} ${API}${r.path}`),
        scope: 'client, tenant, key',
      },
      openapi: {
        document: `${API}/openapi.json`,
        files: VERSIONS.flatMap((v) => [`${API}/openapi/${v}.json`, `${API}/openapi/${v}.yaml`]),
      },
      webhooks: {
        events: WEBHOOK_EVENTS,
        signatureHeader: 'X-Almond-Signature',
        deliveryIdHeader: 'X-Almond-Delivery',
      },
      routes: ROUTES.map((r) => ({ method: r.method, path: `${API}${r.path}`, purpose: r.purpose, auth: r.auth })),
    },
  };
}

describeRoutes(ROUTES);
