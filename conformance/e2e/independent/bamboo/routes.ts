// The route table (axum's Router in the original): the interface's routes with what the OpenAPI document
// says of each; bamboo's own additions (delivery log, removal, info, files) are in extra-routes.ts.
import { listAudit } from './audit.ts';
import { checkCapability, listCapabilities, listConnectors, listProviders } from './catalog-handlers.ts';
import { createConnection, listConnections } from './connections.ts';
import { EXTRA_ROUTES } from './extra-routes.ts';
import { createKey } from './idempotency.ts';
import { openapiDocument } from './openapi.ts';
import type { Route } from './pipeline.ts';
import { list, obj, ref, str } from './schemas.ts';
import { describe } from './self-description.ts';
import { openStream } from './stream.ts';
import { registerWebhook } from './webhooks.ts';

export interface DocRoute extends Route {
  operationId: string;
  body?: string;
  data?: unknown;
  query?: { name: string; schema: unknown; required?: boolean }[];
  interfaceRoute?: boolean;
}

export const P = '/api/public/v1';
export const count = { type: 'integer', minimum: 0 };

const INTERFACE_ROUTES: DocRoute[] = [
  {
    method: 'GET',
    path: P,
    auth: false,
    purpose: 'self-description',
    operationId: 'describeService',
    interfaceRoute: true,
    run: (c, x) => describe(c, x.base, x.state.tokenUrl),
    data: obj(
      {
        service: str(),
        surface: str(),
        version: str(),
        authentication: { type: 'object' },
        idempotency: { type: 'object' },
        routes: list(ref('RouteInfo')),
      },
      ['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'],
    ),
  },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    auth: false,
    purpose: 'OpenAPI 3.1 document',
    operationId: 'getOpenApi',
    interfaceRoute: true,
    run: (c) => openapiDocument(c),
  },
  {
    method: 'GET',
    path: `${P}/providers`,
    auth: true,
    purpose: 'list providers',
    operationId: 'listProviders',
    interfaceRoute: true,
    run: listProviders,
    query: [{ name: 'category', schema: str() }],
    data: obj({ count, providers: list(ref('Provider')) }, ['count', 'providers']),
  },
  {
    method: 'GET',
    path: `${P}/connectors`,
    auth: true,
    purpose: 'list connectors',
    operationId: 'listConnectors',
    interfaceRoute: true,
    run: listConnectors,
    query: [
      { name: 'capability', schema: str() },
      { name: 'providerId', schema: str() },
      { name: 'category', schema: str() },
    ],
    data: obj({ count, connectors: list(ref('Connector')) }, ['count', 'connectors']),
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    auth: true,
    purpose: 'capability catalog',
    operationId: 'listCapabilities',
    interfaceRoute: true,
    run: listCapabilities,
    data: obj({ count, capabilities: list(ref('Capability')) }, ['count', 'capabilities']),
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    auth: true,
    purpose: 'check a capability of a connector',
    operationId: 'checkCapability',
    interfaceRoute: true,
    run: checkCapability,
    body: 'CapabilityCheck',
    data: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }, ['decision', 'environment']),
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    auth: true,
    purpose: 'connections of the tenant',
    operationId: 'listConnections',
    interfaceRoute: true,
    run: listConnections,
    data: obj({ tenant: str(), count, connections: list(ref('Connection')) }, ['tenant', 'count', 'connections']),
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    auth: true,
    key: true,
    purpose: 'create a connection',
    operationId: 'createConnection',
    interfaceRoute: true,
    run: createConnection,
    body: 'ConnectionCreate',
    data: ref('Connection'),
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    auth: true,
    purpose: 'generate an idempotency key',
    operationId: 'createIdempotencyKey',
    interfaceRoute: true,
    run: createKey,
    body: 'KeyRequest',
    data: ref('KeyResult'),
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    auth: false,
    purpose: 'status stream (Server-Sent Events)',
    operationId: 'openStream',
    interfaceRoute: true,
    run: openStream,
    query: [{ name: 'cursor', schema: { type: 'integer', minimum: 0 } }],
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    auth: true,
    key: true,
    purpose: 'create a webhook receiver',
    operationId: 'createWebhook',
    interfaceRoute: true,
    run: registerWebhook,
    body: 'WebhookCreate',
    data: ref('Webhook'),
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    auth: true,
    purpose: 'audit log with a proof of integrity',
    operationId: 'listAuditLog',
    interfaceRoute: true,
    run: listAudit,
    query: [
      { name: 'limit', schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 } },
      { name: 'cursor', schema: str() },
    ],
    data: obj(
      {
        tenant: str(),
        order: str(),
        count,
        entries: list(ref('AuditEntry')),
        nextCursor: { type: ['string', 'null'] },
        proof: { type: 'object' },
      },
      ['entries', 'proof'],
    ),
  },
];

export const ROUTES: DocRoute[] = [...INTERFACE_ROUTES, ...EXTRA_ROUTES];
