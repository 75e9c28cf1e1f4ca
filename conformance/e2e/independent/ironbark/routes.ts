// The route table (Saturn's `router { ... }`), which the self-description and the OpenAPI document read.
import { checkCapability, info, listCapabilities, listConnectors, listProviders } from './handlers-catalog.ts';
import { createConnection, createIdempotencyKey, getConnection, listConnections } from './handlers-connections.ts';
import {
  auditLog,
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  requeueDelivery,
} from './handlers-webhooks.ts';
import { openapiFile, openapiJson } from './openapi.ts';
import { stream } from './stream.ts';
import type { Input, Output, Route } from './types.ts';
import { CURRENT_VERSION, VERSIONS } from './util.ts';

const B = '/api/public/v1';

export const ROUTES: Route[] = [
  { method: 'GET', path: B, purpose: 'self-description', auth: false, key: 'none', handle: selfDescription },
  {
    method: 'GET',
    path: `${B}/openapi.json`,
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    key: 'none',
    raw: openapiJson,
  },
  {
    method: 'GET',
    path: `${B}/openapi/{file}`,
    purpose: 'OpenAPI 3.1 document as a downloadable file per version ({version}.json or {version}.yaml)',
    auth: false,
    key: 'none',
    raw: openapiFile,
  },
  {
    method: 'GET',
    path: `${B}/info`,
    purpose: 'service information (sample first call)',
    auth: false,
    key: 'none',
    handle: info,
  },
  { method: 'GET', path: `${B}/providers`, purpose: 'list providers', auth: true, key: 'none', handle: listProviders },
  {
    method: 'GET',
    path: `${B}/connectors`,
    purpose: 'list connectors',
    auth: true,
    key: 'none',
    handle: listConnectors,
  },
  {
    method: 'GET',
    path: `${B}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    key: 'none',
    handle: listCapabilities,
  },
  {
    method: 'POST',
    path: `${B}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    key: 'optional',
    handle: checkCapability,
  },
  {
    method: 'GET',
    path: `${B}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    key: 'none',
    handle: listConnections,
  },
  {
    method: 'POST',
    path: `${B}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: 'required',
    handle: createConnection,
  },
  {
    method: 'GET',
    path: `${B}/connections/{connectionId}`,
    purpose: 'one connection of the tenant',
    auth: true,
    key: 'none',
    handle: getConnection,
  },
  {
    method: 'POST',
    path: `${B}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    key: 'optional',
    handle: createIdempotencyKey,
  },
  {
    method: 'GET',
    path: `${B}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    key: 'none',
    raw: stream,
  },
  {
    method: 'POST',
    path: `${B}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    key: 'required',
    handle: createWebhook,
  },
  {
    method: 'GET',
    path: `${B}/webhooks`,
    purpose: 'webhook receivers of the tenant',
    auth: true,
    key: 'none',
    handle: listWebhooks,
  },
  {
    method: 'GET',
    path: `${B}/webhooks/{webhookId}`,
    purpose: 'one webhook receiver',
    auth: true,
    key: 'none',
    handle: getWebhook,
  },
  {
    method: 'DELETE',
    path: `${B}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: 'required',
    handle: deleteWebhook,
  },
  {
    method: 'GET',
    path: `${B}/webhooks/{webhookId}/deliveries`,
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    key: 'none',
    since: CURRENT_VERSION,
    handle: listDeliveries,
  },
  {
    method: 'POST',
    path: `${B}/webhooks/{webhookId}/deliveries/{deliveryId}/requeue`,
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: 'required',
    since: CURRENT_VERSION,
    handle: requeueDelivery,
  },
  {
    method: 'GET',
    path: `${B}/audit-log`,
    purpose: 'audit log with a proof of integrity',
    auth: true,
    key: 'none',
    handle: auditLog,
  },
];

export function routesFor(version: string): Route[] {
  return ROUTES.filter((r) => !r.since || version >= r.since);
}

export function match(path: string, template: string): Record<string, string> | undefined {
  const a = path.split('/');
  const b = template.split('/');
  if (a.length !== b.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < b.length; i++) {
    const t = b[i] as string;
    const s = a[i] as string;
    if (t.startsWith('{') && t.endsWith('}')) {
      if (!s) return undefined;
      try {
        params[t.slice(1, -1)] = decodeURIComponent(s);
      } catch {
        return undefined;
      }
    } else if (t !== s) return undefined;
  }
  return params;
}

function selfDescription(input: Input): Output {
  const { app, ctx } = input;
  return {
    data: {
      service: 'Network Connections Service',
      surface: 'public',
      version: ctx.version,
      SupportedVersions: VERSIONS,
      Environment: app.environment,
      authentication: {
        type: 'oauth2',
        flow: 'client_credentials',
        tokenUrl: `${ctx.origin}${app.tokenPath}`,
        tokenEndpointAuthMethods: ['client_secret_basic', 'client_secret_post'],
        headers: { authorization: 'Bearer <access token>', tenant: 'x-service-tenant' },
      },
      idempotency: {
        header: 'Idempotency-Key',
        pattern: '^[A-Za-z0-9._:-]{8,128}$',
        requiredOn: routesFor(ctx.version)
          .filter((r) => r.key === 'required')
          .map((r) => `${r.method} ${r.path}`),
        replay: 'same key and same content: the same response with meta.replayed true',
        conflict: 'same key and different content: 409 idempotency_conflict',
      },
      webhooks: {
        events: ['ConnectionCreated', 'ConnectionStateChanged', 'order.created', 'order.paid'],
        signatureHeader: 'Ironbark-Signature',
        deliveryIdHeader: 'Ironbark-Delivery',
      },
      routes: routesFor(ctx.version).map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
    },
  };
}
