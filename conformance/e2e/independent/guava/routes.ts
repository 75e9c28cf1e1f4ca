// The route table: one list drives the dispatcher, the self-description and the OpenAPI document, the
// way Mojolicious::Plugin::OpenAPI builds routes from the spec (x-mojo-to) instead of a second table.
import { jsonBody } from './http.ts';
import { createKey } from './idempotency.ts';
import { bodies } from './openapi-schemas.ts';
import * as r from './resources.ts';
import { EVENT_ROUTES } from './routes-events.ts';
import { META_ROUTES, type RouteDef, useTable } from './self-description.ts';
import { PREFIX } from './state.ts';
import { validBody } from './validate.ts';

export type { RouteDef } from './self-description.ts';

const str = { type: 'string' };
const P = PREFIX;
export const ROUTES: RouteDef[] = [
  ...META_ROUTES,
  {
    method: 'GET',
    path: `${P}/info`,
    opId: 'info',
    data: 'Info',
    purpose: 'who am I: client, tenant, version',
    auth: true,
    run: (_s, c) => ({ service: 'guava', client: c.clientId, tenant: c.tenant, version: c.version }),
  },
  {
    method: 'GET',
    path: `${P}/providers`,
    opId: 'listProviders',
    data: 'ProviderList',
    purpose: 'list providers',
    auth: true,
    query: [{ name: 'category', schema: str }],
    run: (_s, c) => r.listProviders(c),
  },
  {
    method: 'GET',
    path: `${P}/connectors`,
    opId: 'listConnectors',
    data: 'ConnectorList',
    purpose: 'list connectors',
    auth: true,
    query: ['capability', 'providerId', 'category'].map((name) => ({ name, schema: str })),
    run: (_s, c) => r.listConnectors(c),
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    opId: 'listCapabilities',
    data: 'CapabilityList',
    purpose: 'capability catalog',
    auth: true,
    run: () => r.listCapabilities(),
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    opId: 'checkCapability',
    data: 'Decision',
    purpose: 'check a capability of a connector',
    auth: true,
    body: 'CapabilityCheck',
    run: (_s, c) => r.checkCapability(c),
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    opId: 'listConnections',
    data: 'ConnectionList',
    purpose: 'connections of the tenant',
    auth: true,
    run: r.listConnections,
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    opId: 'createConnection',
    purpose: 'create a connection',
    auth: true,
    key: true,
    body: 'ConnectionCreate',
    data: 'Connection',
    run: (s, c) => void r.createConnection(s, c),
  },
  {
    method: 'GET',
    path: `${P}/connections/{connectionId}`,
    opId: 'getConnection',
    purpose: 'one connection of the tenant',
    auth: true,
    data: 'Connection',
    run: r.getConnection,
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    opId: 'createIdempotencyKey',
    data: 'KeyResult',
    purpose: 'generate an idempotency key',
    auth: true,
    body: 'KeyCreate',
    run: (s, c) => createKey(s, c, validBody(bodies.KeyCreate ?? {}, jsonBody(c))),
  },
  ...EVENT_ROUTES,
];
useTable(() => ROUTES);
