// The route table kapok serves (the OpenAPI document and the self-description are built from it) and the
// self-description itself.
import { auditLog } from './audit.ts';
import {
  checkCapability,
  createConnection,
  info,
  issueKey,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
} from './connections.ts';
import { VERSION } from './http-util.ts';
import type { Route } from './router.ts';
import { EVENTS, listDeliveries, registerWebhook, retryDelivery } from './webhooks.ts';

export const P = '/api/public/v1';

const none = () => ({});
export const ROUTES: Route[] = [
  { method: 'GET', path: P, purpose: 'self-description', auth: false, key: 'none', handler: none },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    key: 'none',
    handler: none,
  },
  {
    method: 'GET',
    path: `${P}/info`,
    purpose: 'who is calling: tenant, client, environment',
    auth: true,
    key: 'none',
    handler: info,
  },
  { method: 'GET', path: `${P}/providers`, purpose: 'list providers', auth: true, key: 'none', handler: listProviders },
  {
    method: 'GET',
    path: `${P}/connectors`,
    purpose: 'list connectors',
    auth: true,
    key: 'none',
    handler: listConnectors,
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    key: 'none',
    handler: listCapabilities,
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    key: 'optional',
    handler: checkCapability,
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    key: 'none',
    handler: listConnections,
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: 'required',
    handler: createConnection,
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    key: 'optional',
    handler: issueKey,
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    key: 'none',
    handler: none,
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    key: 'required',
    handler: registerWebhook,
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{id}/deliveries`,
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    key: 'none',
    handler: listDeliveries,
  },
  {
    method: 'POST',
    path: `${P}/deliveries/{id}/retry`,
    purpose: 'trigger a delivery again',
    auth: true,
    key: 'required',
    handler: retryDelivery,
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log with a signed hash chain',
    auth: true,
    key: 'none',
    handler: auditLog,
  },
];

export const DOCS: Record<string, 'json' | 'yaml'> = {
  [`${P}/openapi/2026-07-01.json`]: 'json',
  [`${P}/openapi/2026-07-01.yaml`]: 'yaml',
  [`${P}/openapi/2026-06-12.json`]: 'json',
};

export function selfDescription(origin: string) {
  return {
    service: 'Network Connections Service',
    surface: 'public',
    version: VERSION,
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenEndpoint: `${origin}/oauth/token`,
      metadata: `${origin}/.well-known/oauth-authorization-server`,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      validitySeconds: 3600,
      requiredOn: ROUTES.filter((r) => r.key === 'required').map((r) => `${r.method} ${r.path}`),
    },
    webhooks: { events: EVENTS, signatureHeader: 'Kapok-Signature' },
    openapi: Object.keys(DOCS),
    routes: ROUTES.map(({ method, path, purpose, auth }) => ({ method, path, purpose, auth })),
  };
}
