// The Play routes file of tamarack: one table that routes requests and feeds the self-description and the
// OpenAPI document, so the three cannot disagree.
import * as api from './api-handlers.ts';
import type { Handler, Route } from './app.ts';
import { CURRENT_VERSION, ok } from './http-kit.ts';
import { openApiDocument, openApiFile } from './openapi.ts';
import { serveStream } from './stream-handler.ts';
import { KEY_PATTERN } from './validate.ts';
import * as hooks from './webhook-handlers.ts';
import { EVENT_NAMES, SIGNATURE_HEADER } from './webhooks.ts';

const describe: Handler = (ctx, app) => {
  ok(ctx, {
    service: 'Network Connections Service',
    surface: 'public',
    version: ctx.version,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      metadata: '/.well-known/oauth-authorization-server',
      tokenEndpoint: '/oauth2/token',
      tokens: 'opaque bearer tokens, introspected (RFC 7662)',
      tenantHeader: 'x-service-tenant',
      auditSigningKey: app.audit.publicJwk,
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      requiredOn: ROUTES.filter((r) => r.key).map((r) => `${r.method} /api/public/v1${r.path}`),
      scope: 'tenant',
      validityHours: 48,
      issue: 'POST /api/public/v1/idempotency-keys',
    },
    webhooks: { events: EVENT_NAMES, signatureHeader: SIGNATURE_HEADER, retries: 'up to 5 attempts, waits doubling' },
    stream: {
      numbering: "Kafka offsets of the partition read (public, or the tenant's with a token and x-service-tenant)",
    },
    documents: {
      json: `/api/public/v1/openapi/${CURRENT_VERSION}.json`,
      yaml: `/api/public/v1/openapi/${CURRENT_VERSION}.yaml`,
      versions: ['2026-06-12', '2026-07-01'],
    },
    routes: ROUTES.filter((r) => r.since === undefined || r.since <= ctx.version).map((r) => ({
      method: r.method,
      path: `/api/public/v1${r.path}`,
      purpose: r.purpose,
      auth: r.auth,
    })),
  });
};

const pub = { auth: false, key: false } as const;
const authed = { auth: true, key: false } as const;
const keyed = { auth: true, key: true } as const;

export const ROUTES: Route[] = [
  { method: 'GET', path: '', ...pub, purpose: 'self-description', contract: true, handler: describe },
  {
    method: 'GET',
    path: '/openapi.json',
    ...pub,
    purpose: 'OpenAPI 3.1 document',
    contract: true,
    handler: openApiDocument,
  },
  {
    method: 'GET',
    path: '/openapi/{file}',
    ...pub,
    purpose: 'OpenAPI document of one version as a JSON or YAML file',
    handler: openApiFile,
  },
  {
    method: 'GET',
    path: '/info',
    ...authed,
    purpose: 'the access, tenant and environment of this call',
    handler: api.info,
  },
  {
    method: 'GET',
    path: '/providers',
    ...authed,
    scope: 'catalog:read',
    purpose: 'list providers',
    contract: true,
    handler: api.listProviders,
  },
  {
    method: 'GET',
    path: '/connectors',
    ...authed,
    scope: 'catalog:read',
    purpose: 'list connectors',
    contract: true,
    handler: api.listConnectors,
  },
  {
    method: 'GET',
    path: '/capabilities',
    ...authed,
    scope: 'catalog:read',
    purpose: 'capability catalog',
    contract: true,
    handler: api.listCapabilities,
  },
  {
    method: 'POST',
    path: '/capabilities',
    ...authed,
    scope: 'catalog:read',
    purpose: 'check a capability of a connector',
    contract: true,
    handler: api.checkCapability,
  },
  {
    method: 'GET',
    path: '/connections',
    ...authed,
    scope: 'connections:read',
    purpose: 'connections of the tenant',
    contract: true,
    handler: api.listConnections,
  },
  {
    method: 'POST',
    path: '/connections',
    ...keyed,
    scope: 'connections:write',
    purpose: 'create a connection',
    contract: true,
    handler: api.createConnection,
  },
  {
    method: 'GET',
    path: '/connections/{connectionId}',
    ...authed,
    scope: 'connections:read',
    purpose: 'one connection of the tenant',
    handler: api.getConnection,
  },
  {
    method: 'POST',
    path: '/idempotency-keys',
    ...authed,
    scope: 'connections:write',
    purpose: 'generate an idempotency key',
    contract: true,
    handler: api.issueKey,
  },
  {
    method: 'GET',
    path: '/stream',
    ...pub,
    purpose: 'status stream (Server-Sent Events)',
    contract: true,
    handler: serveStream,
  },
  {
    method: 'POST',
    path: '/webhooks',
    ...keyed,
    scope: 'webhooks:manage',
    purpose: 'create a webhook receiver',
    contract: true,
    handler: hooks.registerWebhook,
  },
  {
    method: 'GET',
    path: '/webhooks',
    ...authed,
    scope: 'webhooks:manage',
    purpose: 'webhook receivers of the tenant',
    handler: hooks.listWebhooks,
  },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}',
    ...authed,
    scope: 'webhooks:manage',
    purpose: 'one webhook receiver',
    handler: hooks.getWebhook,
  },
  {
    method: 'DELETE',
    path: '/webhooks/{webhookId}',
    ...keyed,
    scope: 'webhooks:manage',
    purpose: 'remove a webhook receiver',
    handler: hooks.deleteWebhook,
  },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}/outbox',
    ...authed,
    scope: 'webhooks:manage',
    since: '2026-07-01',
    purpose: 'delivery log of a receiver (its outbox rows and attempts)',
    handler: hooks.deliveryLog,
  },
  {
    method: 'POST',
    path: '/webhooks/{webhookId}/outbox/{deliveryId}/requeue',
    ...keyed,
    scope: 'webhooks:manage',
    since: '2026-07-01',
    purpose: 'trigger one logged delivery again',
    handler: hooks.requeueDelivery,
  },
  {
    method: 'GET',
    path: '/audit-log',
    ...authed,
    scope: 'audit:read',
    purpose: 'audit log of the tenant with a signed Merkle tree head',
    contract: true,
    handler: (ctx, app) => ok(ctx, app.audit.page(ctx.tenant ?? '', ctx.query, app.store.options.auditOldestFirst)),
  },
];

const decode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** Finds the route of a path under the base (an unknown path or method: no route, answered 404). */
export function match(method: string, path: string): { route?: Route; params: Record<string, string> } {
  const parts = path.split('/');
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const pattern = route.path.split('/');
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const fits = pattern.every((seg, i) => {
      const part = parts[i] ?? '';
      if (seg.startsWith('{')) {
        if (part === '') return false;
        params[seg.slice(1, -1)] = decode(part);
        return true;
      }
      return seg === part;
    });
    if (fits) return { route, params };
  }
  return { params: {} };
}
