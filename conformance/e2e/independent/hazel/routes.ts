// The route table (the source of the self-description and of the OpenAPI paths) and its handlers.
import { auditPage } from './audit.ts';
import { METADATA_PATH, TOKEN_PATH } from './auth.ts';
import type { Ctx } from './http-kit.ts';
import { API, ok } from './http-kit.ts';
import { issueKey, once, requireKey, validated } from './idempotency.ts';
import {
  checkCapability,
  createConnection,
  listCapabilities,
  listConnectors,
  listProviders,
  oneConnection,
  parseCreate,
  tenantConnections,
} from './operations.ts';
import type { Route } from './route-kit.ts';
import { body, tenantOf } from './route-kit.ts';
import type { State } from './store.ts';
import { openStream } from './stream.ts';
import { text } from './validate.ts';
import { WEBHOOK_ROUTES } from './webhook-routes.ts';

export type { Route } from './route-kit.ts';

export const ROUTES: Route[] = [
  {
    method: 'GET',
    path: '',
    auth: false,
    key: false,
    contract: true,
    operationId: 'describeServiceUsingGET',
    purpose: 'self-description',
    handle: (s, ctx) => ok(ctx, selfDescription(s, ctx)),
  },
  {
    method: 'GET',
    path: '/openapi.json',
    auth: false,
    key: false,
    contract: true,
    operationId: 'openApiDocumentUsingGET',
    purpose: 'OpenAPI 3.1 document',
    handle: () => undefined,
  },
  {
    method: 'GET',
    path: '/info',
    auth: true,
    key: false,
    contract: false,
    operationId: 'infoUsingGET',
    purpose: 'who am I: tenant, access, environment',
    handle: (s, ctx) =>
      ok(ctx, {
        tenant: ctx.tenant,
        clientId: ctx.clientId,
        environment: 'sandbox',
        version: ctx.version,
        rateLimit: { limit: s.options.rateLimit, windowSeconds: s.options.windowMs / 1000 },
      }),
  },
  {
    method: 'GET',
    path: '/providers',
    auth: true,
    key: false,
    contract: true,
    operationId: 'listProvidersUsingGET',
    purpose: 'list providers',
    handle: (_s, ctx) => ok(ctx, listProviders(ctx)),
  },
  {
    method: 'GET',
    path: '/connectors',
    auth: true,
    key: false,
    contract: true,
    operationId: 'listConnectorsUsingGET',
    purpose: 'list connectors',
    handle: (_s, ctx) => ok(ctx, listConnectors(ctx)),
  },
  {
    method: 'GET',
    path: '/capabilities',
    auth: true,
    key: false,
    contract: true,
    operationId: 'listCapabilitiesUsingGET',
    purpose: 'capability catalog',
    handle: (_s, ctx) => ok(ctx, listCapabilities()),
  },
  {
    method: 'POST',
    path: '/capabilities',
    auth: true,
    key: false,
    contract: true,
    operationId: 'checkCapabilityUsingPOST',
    purpose: 'check a capability of a connector',
    handle: async (s, ctx) =>
      ok(ctx, checkCapability(await body(s, ctx, ['connectorId', 'capability', 'environment']))),
  },
  {
    method: 'GET',
    path: '/connections',
    auth: true,
    key: false,
    contract: true,
    operationId: 'listConnectionsUsingGET',
    purpose: 'connections of the tenant',
    handle: (s, ctx) => {
      const connections = tenantConnections(s, tenantOf(ctx));
      ok(ctx, { tenant: ctx.tenant, count: connections.length, connections });
    },
  },
  {
    method: 'POST',
    path: '/connections',
    auth: true,
    key: true,
    contract: true,
    operationId: 'createConnectionUsingPOST',
    purpose: 'create a connection',
    handle: async (s, ctx) => {
      const key = requireKey(ctx);
      const json = await body(s, ctx, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
      const input = validated(s, () => parseCreate(json));
      once(s, ctx, key, json, () => createConnection(s, ctx, tenantOf(ctx), input()));
    },
  },
  {
    method: 'GET',
    path: '/connections/{connectionId}',
    auth: true,
    key: false,
    contract: false,
    operationId: 'getConnectionUsingGET',
    purpose: 'one connection of the tenant',
    handle: (s, ctx, p) => ok(ctx, oneConnection(s, tenantOf(ctx), p.connectionId ?? '')),
  },
  {
    method: 'POST',
    path: '/idempotency-keys',
    auth: true,
    key: false,
    contract: true,
    operationId: 'createIdempotencyKeyUsingPOST',
    purpose: 'generate an idempotency key',
    handle: async (s, ctx) => {
      const operation = text(await body(s, ctx, ['operation']), 'operation', 2, 80) as string;
      ok(ctx, issueKey(s, ctx, operation));
    },
  },
  {
    method: 'GET',
    path: '/stream',
    auth: false,
    key: false,
    contract: true,
    operationId: 'streamStatusUsingGET',
    purpose: 'status stream (Server-Sent Events)',
    handle: (s, ctx) => openStream(s, ctx),
  },
  ...WEBHOOK_ROUTES,
  {
    method: 'GET',
    path: '/audit-log',
    auth: true,
    key: false,
    contract: true,
    operationId: 'listAuditLogUsingGET',
    purpose: 'audit log with a proof of integrity',
    handle: (s, ctx) => {
      const page = auditPage(s, ctx, tenantOf(ctx));
      if (page.link) ctx.res.setHeader('Link', `<${page.link}>; rel="next"`);
      ok(ctx, page.data);
    },
  },
];

export function selfDescription(s: State, ctx: Ctx): unknown {
  return {
    service: 'Network Connections Service',
    surface: 'public',
    version: ctx.version,
    authentication: {
      scheme: 'OAuth 2.1 bearer token',
      flows: ['client_credentials'],
      tokenEndpoint: `${s.authOrigin}${TOKEN_PATH}`,
      metadata: `${s.authOrigin}${METADATA_PATH}`,
      tokenLifetimeSeconds: 300,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      validity: 'PT1H',
      requiredOn: ROUTES.filter((r) => r.key).map((r) => `${r.method} ${API}${r.path}`),
    },
    rateLimit: {
      limit: s.options.rateLimit,
      windowSeconds: s.options.windowMs / 1000,
      per: 'access, tenant and environment',
    },
    routes: ROUTES.map((r) => ({ method: r.method, path: `${API}${r.path}`, purpose: r.purpose, auth: r.auth })),
  };
}
