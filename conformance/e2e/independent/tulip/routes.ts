// The route table (http4s `HttpRoutes` flattened): method, path template, whether the auth, tenant and
// rate-limit Kleislis apply, whether an Idempotency-Key is required, and the handler. The self-description and
// the OpenAPI document are generated from it, so they describe exactly what is served.
import { auditKeys, listAudit } from './audit.ts';
import { type Ctx, ok, PREFIX, type Rec } from './http.ts';
import { issueKey } from './idempotency.ts';
import { serveOpenApi, serveSelf } from './openapi.ts';
import {
  checkCapability,
  createConnection,
  getConnection,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
  validateCreation,
} from './resources.ts';
import { keyed, type Route } from './router.ts';
import type { Store } from './state.ts';
import { openStream } from './stream.ts';
import { listDeliveries, redeliver, register, remove } from './webhooks.ts';

const P = PREFIX;
export const ROUTES: Route[] = [
  { method: 'GET', path: P, auth: false, purpose: 'self-description', handle: (s, c) => serveSelf(s, c) },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    auth: false,
    purpose: 'OpenAPI 3.1 document',
    handle: (s, c) => serveOpenApi(s, c, 'json'),
  },
  {
    method: 'GET',
    path: `${P}/openapi/{version}.json`,
    auth: false,
    purpose: 'OpenAPI document of a version (JSON file)',
    handle: (s, c) => serveOpenApi(s, c, 'json'),
  },
  {
    method: 'GET',
    path: `${P}/openapi/{version}.yaml`,
    auth: false,
    purpose: 'OpenAPI document of a version (YAML file)',
    handle: (s, c) => serveOpenApi(s, c, 'yaml'),
  },
  {
    method: 'GET',
    path: `${P}/info`,
    auth: true,
    purpose: 'who am I: access, tenant, environment',
    handle: (s, c) => info(s, c),
  },
  { method: 'GET', path: `${P}/providers`, auth: true, purpose: 'list providers', handle: (_s, c) => listProviders(c) },
  {
    method: 'GET',
    path: `${P}/connectors`,
    auth: true,
    purpose: 'list connectors',
    handle: (_s, c) => listConnectors(c),
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    auth: true,
    purpose: 'capability catalog',
    handle: (_s, c) => listCapabilities(c),
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    auth: true,
    purpose: 'check a capability of a connector',
    handle: (_s, c) => checkCapability(c),
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    auth: true,
    purpose: 'connections of the tenant',
    handle: listConnections,
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    auth: true,
    key: true,
    purpose: 'create a connection',
    handle: keyed('connection.create', (s, c) => createConnection(s, c, c.body as Rec), validateCreation),
  },
  {
    method: 'GET',
    path: `${P}/connections/{connectionId}`,
    auth: true,
    purpose: 'one connection of the tenant',
    handle: getConnection,
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    auth: true,
    purpose: 'generate an idempotency key',
    handle: (_s, c) => issueKey(c),
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    auth: false,
    purpose: 'status stream (Server-Sent Events)',
    handle: openStream,
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    auth: true,
    key: true,
    purpose: 'create a webhook receiver',
    handle: keyed('webhook.create', register),
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    auth: true,
    key: true,
    purpose: 'remove a webhook receiver',
    handle: keyed('webhook.delete', remove),
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/delivery-attempts`,
    auth: true,
    purpose: 'delivery log of a webhook receiver',
    handle: listDeliveries,
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/delivery-attempts/{deliveryId}/retry`,
    auth: true,
    key: true,
    purpose: 'trigger a logged delivery again',
    handle: keyed('webhook.redeliver', redeliver),
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    auth: true,
    purpose: 'audit log with a signed chain head',
    handle: listAudit,
  },
  {
    method: 'GET',
    path: `${P}/audit-log/keys`,
    auth: false,
    purpose: 'public keys of the audit signature (JWK set)',
    handle: auditKeys,
  },
];

function info(store: Store, ctx: Ctx): void {
  ok(ctx, {
    service: 'tulip',
    clientId: ctx.clientId,
    tenant: ctx.tenant,
    environment: 'sandbox',
    releasedTenants: store.client.tenants,
  });
}
