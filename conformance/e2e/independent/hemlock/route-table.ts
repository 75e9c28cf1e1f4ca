// The route table, Phoenix-router style: one line per route. It drives dispatch, the self-description's
// routes and the OpenAPI document, so what is described is what is served.

import { auditPage } from './audit.ts';
import { CURRENT_VERSION } from './http-kit.ts';
import {
  type Call,
  checkCapability,
  createConnection,
  getConnection,
  issueKey,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
} from './routes-core.ts';
import {
  createWebhook,
  deleteWebhook,
  EVENT_NAMES,
  getWebhook,
  listAttempts,
  listWebhooks,
  replay,
} from './routes-webhooks.ts';

export type KeyRule = 'required' | 'optional' | 'none';

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  operationId: string;
  purpose: string;
  auth: boolean;
  key: KeyRule;
  /** The interface version that added the route: callers asking for an earlier version get 404. */
  since?: string;
  handler?: (c: Call) => unknown;
}

const P = '/api/public/v1';

export const ROUTES: Route[] = [
  { method: 'GET', path: P, operationId: 'describeService', purpose: 'self-description', auth: false, key: 'none' },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    operationId: 'getOpenApi',
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    key: 'none',
  },
  {
    method: 'GET',
    path: `${P}/openapi/{version}.yaml`,
    operationId: 'getOpenApiYaml',
    purpose: 'OpenAPI 3.1 document of one version as a YAML file',
    auth: false,
    key: 'none',
  },
  {
    method: 'GET',
    path: `${P}/info`,
    operationId: 'getInfo',
    purpose: 'the access, tenant and environment of this call',
    auth: true,
    key: 'none',
  },
  {
    method: 'GET',
    path: `${P}/providers`,
    operationId: 'listProviders',
    purpose: 'list providers',
    auth: true,
    key: 'none',
    handler: listProviders,
  },
  {
    method: 'GET',
    path: `${P}/connectors`,
    operationId: 'listConnectors',
    purpose: 'list connectors',
    auth: true,
    key: 'none',
    handler: listConnectors,
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    operationId: 'listCapabilities',
    purpose: 'capability catalog',
    auth: true,
    key: 'none',
    handler: listCapabilities,
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    operationId: 'checkCapability',
    purpose: 'check a capability of a connector',
    auth: true,
    key: 'optional',
    handler: checkCapability,
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    operationId: 'listConnections',
    purpose: 'connections of the tenant',
    auth: true,
    key: 'none',
    handler: listConnections,
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    operationId: 'createConnection',
    purpose: 'create a connection',
    auth: true,
    key: 'required',
    handler: createConnection,
  },
  {
    method: 'GET',
    path: `${P}/connections/{id}`,
    operationId: 'getConnection',
    purpose: 'one connection of the tenant',
    auth: true,
    key: 'none',
    handler: getConnection,
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    operationId: 'issueIdempotencyKey',
    purpose: 'generate an idempotency key',
    auth: true,
    key: 'optional',
    handler: issueKey,
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    operationId: 'streamStatus',
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    key: 'none',
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    operationId: 'createWebhook',
    purpose: 'create a webhook receiver',
    auth: true,
    key: 'required',
    handler: createWebhook,
  },
  {
    method: 'GET',
    path: `${P}/webhooks`,
    operationId: 'listWebhooks',
    purpose: 'webhook receivers of the tenant',
    auth: true,
    key: 'none',
    handler: listWebhooks,
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{id}`,
    operationId: 'getWebhook',
    purpose: 'one webhook receiver',
    auth: true,
    key: 'none',
    handler: getWebhook,
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{id}`,
    operationId: 'deleteWebhook',
    purpose: 'remove a webhook receiver',
    auth: true,
    key: 'required',
    handler: deleteWebhook,
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{id}/delivery-attempts`,
    operationId: 'listDeliveryAttempts',
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    key: 'none',
    since: '2026-07-01',
    handler: listAttempts,
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{id}/delivery-attempts/{attemptId}/replay`,
    operationId: 'replayDeliveryAttempt',
    purpose: 'send a logged delivery again',
    auth: true,
    key: 'required',
    since: '2026-07-01',
    handler: replay,
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    operationId: 'getAuditLog',
    purpose: 'audit log with a proof of integrity',
    auth: true,
    key: 'none',
  },
];

export function match(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
  const parts = path.split('/');
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const tpl = route.path.split('/');
    if (tpl.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    tpl.forEach((t, i) => {
      const part = parts[i] ?? '';
      const m = /^\{(\w+)\}(.*)$/.exec(t);
      if (m?.[1] !== undefined) {
        const suffix = m[2] ?? '';
        if (!part.endsWith(suffix) || part.length <= suffix.length) ok = false;
        else params[m[1]] = decodeURIComponent(part.slice(0, part.length - suffix.length));
      } else if (t !== part) ok = false;
    });
    if (ok) return { route, params };
  }
  return undefined;
}

export function selfDescription(tokenUrl: string): Record<string, unknown> {
  return {
    service: 'Network Connections Service',
    surface: 'public',
    version: CURRENT_VERSION,
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenUrl,
      tokenEndpointAuthMethods: ['client_secret_post'],
      headers: ['Authorization: Bearer <token>', 'x-service-tenant: <tenant>'],
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      requiredOn: ROUTES.filter((r) => r.key === 'required').map((r) => `${r.method} ${r.path}`),
      validityHours: 48,
      replayHeader: 'Idempotency-Replayed',
    },
    versions: { current: CURRENT_VERSION, supported: ['2026-07-01', '2026-06-12'], header: 'Service-Version' },
    webhooks: { events: EVENT_NAMES, signatureHeader: 'X-Hemlock-Signature', deliveryIdHeader: 'X-Hemlock-Delivery' },
    openapi: { json: `/api/public/v1/openapi.json`, yaml: `/api/public/v1/openapi/${CURRENT_VERSION}.yaml` },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
  };
}

export { auditPage };
