// The route table of ebony: one row per operation, read by the dispatcher, the self-description and the
// OpenAPI generator alike, so every route served is a route described.
import { checkCapability, listCapabilities, listConnectors, listProviders } from './catalog.ts';
import { describe } from './describe.ts';
import { BASE, type Call, text } from './http.ts';
import { IdempotencyStore } from './idempotency.ts';
import { webhookRoutes } from './routes-webhooks.ts';
import { list, q, ref, type Schema, str } from './schemas.ts';
import type { Ebony } from './state.ts';

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  /** Needs an Idempotency-Key (a modifying call since 2026-06-12). */
  key?: boolean;
  /** The version that introduced it (absent: both). */
  since?: string;
  tag: string;
  query?: { name: string; schema: Schema; description: string }[];
  body?: Schema;
  /** Schema of data in the success envelope; absent: the route answers itself (stream, files). */
  data?: Schema;
  audit?: [action: string, type: string];
  handle: (call: Call, e: Ebony) => unknown;
}

export function routes(): Route[] {
  return [
    {
      method: 'GET',
      path: BASE,
      purpose: 'self-description',
      auth: false,
      tag: 'meta',
      data: ref('SelfDescription'),
      handle: (c, e) => describe(e, c.version, routesIn(c.version)),
    },
    {
      method: 'GET',
      path: `${BASE}/openapi.json`,
      purpose: 'OpenAPI 3.1 document',
      auth: false,
      tag: 'meta',
      handle: () => undefined,
    },
    {
      method: 'GET',
      path: `${BASE}/openapi/{version}/openapi.json`,
      purpose: 'OpenAPI document of one version as a JSON file',
      auth: false,
      tag: 'meta',
      handle: () => undefined,
    },
    {
      method: 'GET',
      path: `${BASE}/openapi/{version}/openapi.yaml`,
      purpose: 'OpenAPI document of one version as a YAML file',
      auth: false,
      tag: 'meta',
      handle: () => undefined,
    },
    {
      method: 'GET',
      path: `${BASE}/info`,
      purpose: 'service and caller information (first call)',
      auth: true,
      tag: 'meta',
      data: ref('Info'),
      handle: (c, e) => ({
        service: 'ebony',
        region: 'CICSSBX1',
        environment: 'sandbox',
        version: c.version,
        tenant: c.tenant,
        clientId: c.clientId,
        rateLimit: { limit: e.options.rateLimit, windowSeconds: e.options.windowMs / 1000 },
      }),
    },
    {
      method: 'GET',
      path: `${BASE}/providers`,
      purpose: 'list providers',
      auth: true,
      tag: 'catalog',
      query: [q('category', 'restricts to one category')],
      data: list('providers', 'Provider'),
      handle: (c) => listProviders(c),
    },
    {
      method: 'GET',
      path: `${BASE}/connectors`,
      purpose: 'list connectors',
      auth: true,
      tag: 'catalog',
      query: [
        q('capability', 'only connectors offering this capability'),
        q('providerId', 'only connectors of this provider'),
        q('category', 'only this category'),
      ],
      data: list('connectors', 'Connector'),
      handle: (c) => listConnectors(c),
    },
    {
      method: 'GET',
      path: `${BASE}/capabilities`,
      purpose: 'capability catalog',
      auth: true,
      tag: 'catalog',
      data: list('capabilities', 'Capability'),
      handle: () => listCapabilities(),
    },
    {
      method: 'POST',
      path: `${BASE}/capabilities`,
      purpose: 'check a capability of a connector',
      auth: true,
      tag: 'catalog',
      body: {
        type: 'object',
        required: ['connectorId', 'capability'],
        properties: { connectorId: str(2, 120), capability: str(2, 120), environment: ref('Environment') },
      },
      data: {
        type: 'object',
        required: ['decision', 'environment'],
        properties: { decision: ref('CapabilityDecision'), environment: ref('Environment') },
      },
      handle: (c) => checkCapability(c),
    },
    {
      method: 'GET',
      path: `${BASE}/connections`,
      purpose: 'connections of the tenant',
      auth: true,
      tag: 'connections',
      data: list('connections', 'Connection', { tenant: { type: 'string' } }),
      handle: (c, e) => e.connections.list(c),
    },
    {
      method: 'GET',
      path: `${BASE}/connections/{connectionId}`,
      purpose: 'one connection of the tenant',
      auth: true,
      tag: 'connections',
      data: ref('Connection'),
      handle: (c, e) => e.connections.get(c),
    },
    {
      method: 'POST',
      path: `${BASE}/connections`,
      purpose: 'create a connection',
      auth: true,
      key: true,
      tag: 'connections',
      body: {
        type: 'object',
        required: ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
        properties: {
          connectorId: str(2, 120),
          environment: ref('Environment'),
          scopeLabel: str(2, 120),
          capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
        },
      },
      data: ref('Connection'),
      handle: (c, e) => e.connections.create(c),
    },
    {
      method: 'POST',
      path: `${BASE}/idempotency-keys`,
      purpose: 'generate an idempotency key',
      auth: true,
      tag: 'idempotency',
      body: { type: 'object', required: ['operation'], properties: { operation: str(2, 80) } },
      data: ref('IdempotencyKeyResult'),
      handle: (c) => IdempotencyStore.issue(text(c.body, 'operation', 2, 80)),
    },
    {
      method: 'GET',
      path: `${BASE}/stream`,
      purpose: 'status stream (Server-Sent Events)',
      auth: false,
      tag: 'events',
      query: [q('cursor', 'last number read', { type: 'integer', minimum: 0 })],
      handle: (c, e) => e.stream.serve(c),
    },
    ...webhookRoutes(),
  ];
}

/** Routes served in `version` (the delivery log came with 2026-07-01). */
export function routesIn(version: string): Route[] {
  return routes().filter((r) => !r.since || r.since <= version);
}
