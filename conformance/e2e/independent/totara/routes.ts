// totara: the route table (Fastify's `route()` options, reduced to method, url, auth, idempotency and schema),
// matched by path template, and the self-description built from it.
import { TOKEN_PATH } from './auth.ts';
import { CapabilityCheckBody, ConnectionCreateBody, IdempotencyKeyBody, type Schema, webhookBody } from './schema.ts';
import { KEY_PATTERN, PREFIX, type Settings } from './types.ts';
import { DELIVERY_HEADER, SIGNATURE_HEADER, WEBHOOK_EVENTS } from './webhooks.ts';

export type RouteId =
  | 'self'
  | 'info'
  | 'openapi'
  | 'openapiFile'
  | 'providers'
  | 'connectors'
  | 'capabilities'
  | 'capabilityCheck'
  | 'connections'
  | 'connection'
  | 'connectionCreate'
  | 'keyCreate'
  | 'stream'
  | 'webhooks'
  | 'webhookCreate'
  | 'webhook'
  | 'webhookDelete'
  | 'webhookJobs'
  | 'webhookJobRetry'
  | 'auditLog';

export interface RouteDef {
  id: RouteId;
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  /** Idempotency-Key: required (428 when missing), optional (honoured when sent) or not read. */
  key: 'required' | 'optional' | 'none';
  body?: Schema;
  query?: Record<string, Schema>;
  /** Optional on the public stream: an authenticated caller reads its tenant's stream. */
  authOptional?: boolean;
}

const P = PREFIX;
const str = { type: 'string' } as const;

export const ROUTES: RouteDef[] = [
  { id: 'self', method: 'GET', path: P, purpose: 'self-description', auth: false, key: 'none' },
  { id: 'info', method: 'GET', path: `${P}/info`, purpose: 'service information', auth: false, key: 'none' },
  {
    id: 'openapi',
    method: 'GET',
    path: `${P}/openapi.json`,
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    key: 'none',
  },
  {
    id: 'openapiFile',
    method: 'GET',
    path: `${P}/openapi/{file}`,
    purpose:
      'OpenAPI 3.1 document of a version as a download (2026-07-01.json, 2026-07-01.yaml, 2026-06-12.json, 2026-06-12.yaml)',
    auth: false,
    key: 'none',
  },
  {
    id: 'providers',
    method: 'GET',
    path: `${P}/providers`,
    purpose: 'list providers',
    auth: true,
    key: 'none',
    query: { category: str },
  },
  {
    id: 'connectors',
    method: 'GET',
    path: `${P}/connectors`,
    purpose: 'list connectors',
    auth: true,
    key: 'none',
    query: { capability: str, providerId: str, category: str },
  },
  {
    id: 'capabilities',
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    key: 'none',
  },
  {
    id: 'capabilityCheck',
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    key: 'optional',
    body: CapabilityCheckBody,
  },
  {
    id: 'connections',
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    key: 'none',
  },
  {
    id: 'connectionCreate',
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: 'required',
    body: ConnectionCreateBody,
  },
  {
    id: 'connection',
    method: 'GET',
    path: `${P}/connections/{connectionId}`,
    purpose: 'one connection of the tenant',
    auth: true,
    key: 'none',
  },
  {
    id: 'keyCreate',
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    key: 'optional',
    body: IdempotencyKeyBody,
  },
  {
    id: 'stream',
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    key: 'none',
    authOptional: true,
    query: { cursor: { type: 'integer', minimum: 0 } },
  },
  {
    id: 'webhooks',
    method: 'GET',
    path: `${P}/webhooks`,
    purpose: 'webhook receivers of the tenant',
    auth: true,
    key: 'none',
  },
  {
    id: 'webhookCreate',
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    key: 'required',
    body: webhookBody(WEBHOOK_EVENTS),
  },
  {
    id: 'webhook',
    method: 'GET',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'one webhook receiver',
    auth: true,
    key: 'none',
  },
  {
    id: 'webhookDelete',
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: 'required',
  },
  {
    id: 'webhookJobs',
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/jobs`,
    purpose: 'delivery log of a webhook receiver (its delivery jobs)',
    auth: true,
    key: 'none',
  },
  {
    id: 'webhookJobRetry',
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/jobs/{jobId}/retry`,
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: 'required',
  },
  {
    id: 'auditLog',
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log of the tenant with a proof of integrity',
    auth: true,
    key: 'none',
    query: { limit: { type: 'integer', minimum: 1 } },
  },
];

const compiled = ROUTES.map((r) => ({
  route: r,
  re: new RegExp(`^${r.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`),
}));

/** The route for a method and path; `methodMismatch` when the path exists under another method. */
export function match(
  method: string,
  path: string,
): { route?: RouteDef; params: Record<string, string>; pathKnown: boolean } {
  const m = method === 'HEAD' ? 'GET' : method;
  let pathKnown = false;
  for (const { route, re } of compiled) {
    const hit = re.exec(path);
    if (!hit) continue;
    pathKnown = true;
    if (route.method !== m) continue;
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(hit.groups ?? {})) params[k] = decodeURIComponent(v);
    return { route, params, pathKnown };
  }
  return { params: {}, pathKnown };
}

export function selfDescription(version: string, settings: Settings) {
  return {
    service: 'network-connections',
    surface: 'public',
    version,
    environment: 'sandbox',
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenUrl: TOKEN_PATH,
      tokenEndpointAuthMethods: ['client_secret_basic', 'client_secret_post'],
      tokenType: 'Bearer (JWT, HS256)',
      tokenLifetimeSeconds: settings.tokenTtlSeconds,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      requiredOn: ROUTES.filter((r) => r.key === 'required').map((r) => `${r.method} ${r.path}`),
      honouredOn: ROUTES.filter((r) => r.key === 'optional').map((r) => `${r.method} ${r.path}`),
      retentionHours: settings.idempotencyTtlHours,
      scope: 'client, tenant and key',
    },
    webhooks: {
      events: [...WEBHOOK_EVENTS],
      signatureHeader: SIGNATURE_HEADER,
      deliveryIdHeader: DELIVERY_HEADER,
      deliveryLog: `${P}/webhooks/{webhookId}/jobs`,
      redeliver: `${P}/webhooks/{webhookId}/jobs/{jobId}/retry`,
      retry: { attempts: settings.webhookAttempts, backoff: { type: 'exponential', delay: settings.webhookBackoffMs } },
    },
    rateLimit: {
      max: settings.rateLimitMax,
      timeWindowMs: settings.rateLimitWindowMs,
      key: settings.rateLimitScope === 'route' ? 'route, client, tenant' : 'client, tenant',
    },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
  };
}
