import { listAudit } from './audit.ts';
import { TOKEN_LIFETIME_S, TOKEN_PATH } from './auth.ts';
import { CAPABILITIES, CONNECTORS, decide, findConnector, PROVIDERS } from './catalog.ts';
import { catalogList, createConnection, creationParams, listConnections, setPaused } from './connections.ts';
import { ApiError, type Call, CURRENT_VERSION, jsonBody, ok } from './http.ts';
import { issueKey, keyed, keyedNoBody } from './idempotency.ts';
import { serveOpenapiJson, serveOpenapiYaml } from './openapi-files.ts';
import type { State } from './state.ts';
import { openStream } from './stream.ts';
import { environment, KEY_PATTERN, text } from './validate.ts';
import { EVENTS, listDeliveries, registerWebhook, removeWebhook, retryDelivery, SIGNATURE_HEADER } from './webhooks.ts';

export const BASE = '/api/public/v1';

export type Handler = (state: State, call: Call, params: string[]) => Promise<void> | void;
export interface Route {
  method: string;
  path: string;
  auth: boolean;
  key: boolean;
  purpose: string;
  handler: Handler;
}

function selfDescription(state: State, call: Call): void {
  ok(call, {
    service: 'network-connections',
    surface: 'public',
    version: CURRENT_VERSION,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${call.origin}${TOKEN_PATH}`,
      metadata: `${call.origin}/.well-known/oauth-authorization-server`,
      tokenEndpointAuthMethods: ['client_secret_basic'],
      tokenLifetimeSeconds: TOKEN_LIFETIME_S,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      validity_hours: 24,
      scope: 'client and tenant',
    },
    webhooks: { events: EVENTS, signature_header: SIGNATURE_HEADER, signature_tolerance_seconds: 300 },
    documentation: { openapi: `${BASE}/openapi.json`, openapi_yaml: `${BASE}/openapi.yaml` },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
    rate_limit: {
      algorithm: 'token_bucket',
      limit: state.options.rateLimit,
      refill_seconds: state.options.windowMs / 1000,
    },
  });
}

export const ROUTES: Route[] = [
  { method: 'GET', path: BASE, auth: false, key: false, purpose: 'self-description', handler: selfDescription },
  {
    method: 'GET',
    path: `${BASE}/openapi.json`,
    auth: false,
    key: false,
    purpose: 'OpenAPI 3.1 document',
    handler: (_s, call) => serveOpenapiJson(call),
  },
  {
    method: 'GET',
    path: `${BASE}/openapi.yaml`,
    auth: false,
    key: false,
    purpose: 'OpenAPI 3.1 document (YAML download)',
    handler: (_s, call) => serveOpenapiYaml(call),
  },
  {
    method: 'GET',
    path: `${BASE}/info`,
    auth: true,
    key: false,
    purpose: 'who am I',
    handler: (_s, call) => ok(call, { tenant: call.tenant, client: call.clientId, environment: 'sandbox' }),
  },
  {
    method: 'GET',
    path: `${BASE}/providers`,
    auth: true,
    key: false,
    purpose: 'list providers',
    handler: (_s, call) => catalogList(call, 'providers', PROVIDERS),
  },
  {
    method: 'GET',
    path: `${BASE}/connectors`,
    auth: true,
    key: false,
    purpose: 'list connectors',
    handler: (_s, call) => catalogList(call, 'connectors', CONNECTORS),
  },
  {
    method: 'GET',
    path: `${BASE}/capabilities`,
    auth: true,
    key: false,
    purpose: 'capability catalog',
    handler: (_s, call) => catalogList(call, 'capabilities', CAPABILITIES),
  },
  {
    method: 'POST',
    path: `${BASE}/capabilities`,
    auth: true,
    key: false,
    purpose: 'check a capability of a connector',
    handler: async (_s, call) => {
      const body = await jsonBody(call);
      const connectorId = text(body, 'connectorId', 2, 120);
      const capability = text(body, 'capability', 2, 120);
      const env = environment(body, 'environment', 'sandbox');
      const connector = findConnector(connectorId);
      if (!connector)
        throw new ApiError('not_found', 'Connector not found', 'connectorId names no connector of the catalog');
      ok(call, { decision: decide(connector, capability), environment: env });
    },
  },
  {
    method: 'GET',
    path: `${BASE}/connections`,
    auth: true,
    key: false,
    purpose: 'connections of the tenant',
    handler: (s, call) => listConnections(s, call),
  },
  {
    method: 'POST',
    path: `${BASE}/connections`,
    auth: true,
    key: true,
    purpose: 'create a connection',
    handler: keyed(creationParams, (s, c, v) => createConnection(s, c, v)),
  },
  {
    method: 'POST',
    path: `${BASE}/connections/{id}/pause`,
    auth: true,
    key: true,
    purpose: 'pause a connection',
    handler: keyedNoBody((s, c, p) => setPaused(s, c, p[0] ?? '', true)),
  },
  {
    method: 'POST',
    path: `${BASE}/connections/{id}/resume`,
    auth: true,
    key: true,
    purpose: 'resume a paused connection',
    handler: keyedNoBody((s, c, p) => setPaused(s, c, p[0] ?? '', false)),
  },
  {
    method: 'POST',
    path: `${BASE}/idempotency-keys`,
    auth: true,
    key: false,
    purpose: 'generate an idempotency key',
    handler: async (s, call) => issueKey(s, call, await jsonBody(call)),
  },
  {
    method: 'GET',
    path: `${BASE}/stream`,
    auth: false,
    key: false,
    purpose: 'status stream (Server-Sent Events)',
    handler: (s, call) => openStream(s, call),
  },
  {
    method: 'POST',
    path: `${BASE}/webhooks`,
    auth: true,
    key: true,
    purpose: 'create a webhook receiver',
    handler: keyed(
      (b) => b,
      (s, c, v) => registerWebhook(s, c, v),
    ),
  },
  {
    method: 'DELETE',
    path: `${BASE}/webhooks/{id}`,
    auth: true,
    key: true,
    purpose: 'remove a webhook receiver',
    handler: keyedNoBody((s, c, p) => removeWebhook(s, c, p[0] ?? '')),
  },
  {
    method: 'GET',
    path: `${BASE}/webhook_deliveries`,
    auth: true,
    key: false,
    purpose: 'delivery log of a webhook receiver',
    handler: (s, call) => listDeliveries(s, call),
  },
  {
    method: 'POST',
    path: `${BASE}/webhook_deliveries/{id}/retry`,
    auth: true,
    key: true,
    purpose: 'trigger a delivery again',
    handler: keyedNoBody((s, c, p) => retryDelivery(s, c, p[0] ?? '')),
  },
  {
    method: 'GET',
    path: `${BASE}/audit-log`,
    auth: true,
    key: false,
    purpose: 'audit log (hash chain)',
    handler: (s, call) => listAudit(s, call),
  },
];
