// The route table, written once: the self-description's routes and the OpenAPI document's operations both come
// from it (the team's sbt-openapi habit of one source for docs and router). Paths are relative to the server
// `/api/public/v1`, as the document's `servers` entry says.
import type { Rec } from './state.ts';

export interface Route {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  key?: boolean;
  query?: string[];
  body?: Rec;
  data?: Rec;
}

const s = { type: 'string' };
const arr = (items: Rec) => ({ type: 'array', items });
const obj = (properties: Rec, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const ROUTES: Route[] = [
  { method: 'GET', path: '', purpose: 'self-description', auth: false },
  { method: 'GET', path: '/openapi.json', purpose: 'OpenAPI 3.1 document', auth: false },
  { method: 'GET', path: '/openapi/{version}.json', purpose: 'OpenAPI document of a version (JSON file)', auth: false },
  { method: 'GET', path: '/openapi/{version}.yaml', purpose: 'OpenAPI document of a version (YAML file)', auth: false },
  { method: 'GET', path: '/info', purpose: 'service information', auth: false },
  {
    method: 'GET',
    path: '/providers',
    purpose: 'list providers',
    auth: true,
    query: ['category'],
    data: obj({ count: { type: 'integer' }, providers: arr(ref('Provider')) }),
  },
  {
    method: 'GET',
    path: '/connectors',
    purpose: 'list connectors',
    auth: true,
    query: ['capability', 'providerId', 'category'],
    data: obj({ count: { type: 'integer' }, connectors: arr(ref('Connector')) }),
  },
  {
    method: 'GET',
    path: '/capabilities',
    purpose: 'capability catalog',
    auth: true,
    data: obj({ count: { type: 'integer' }, capabilities: arr(ref('Capability')) }),
  },
  {
    method: 'POST',
    path: '/capabilities',
    purpose: 'check a capability of a connector',
    auth: true,
    body: obj(
      {
        connectorId: { type: 'string', minLength: 2, maxLength: 120 },
        capability: { type: 'string', minLength: 2, maxLength: 120 },
        environment: ref('Environment'),
      },
      ['connectorId', 'capability'],
    ),
    data: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  },
  {
    method: 'GET',
    path: '/connections',
    purpose: 'connections of the tenant',
    auth: true,
    data: obj({ tenant: s, count: { type: 'integer' }, connections: arr(ref('Connection')) }),
  },
  {
    method: 'POST',
    path: '/connections',
    purpose: 'create a connection',
    auth: true,
    key: true,
    body: obj({
      connectorId: { type: 'string', minLength: 2, maxLength: 120 },
      environment: ref('Environment'),
      scopeLabel: { type: 'string', minLength: 2, maxLength: 120 },
      capabilities: { ...arr({ type: 'string', minLength: 2, maxLength: 120 }), minItems: 1, maxItems: 24 },
    }),
    data: ref('Connection'),
  },
  {
    method: 'GET',
    path: '/connections/{connectionId}',
    purpose: 'one connection of the tenant',
    auth: true,
    data: ref('Connection'),
  },
  {
    method: 'POST',
    path: '/idempotency-keys',
    purpose: 'generate an idempotency key',
    auth: true,
    body: obj({ operation: { type: 'string', minLength: 2, maxLength: 80 } }),
    data: obj({ idempotencyKey: s, operation: s, expiresAt: { type: 'string', format: 'date-time' } }),
  },
  { method: 'GET', path: '/stream', purpose: 'status stream (Server-Sent Events)', auth: false, query: ['cursor'] },
  {
    method: 'POST',
    path: '/webhooks',
    purpose: 'create a webhook receiver',
    auth: true,
    key: true,
    body: ref('WebhookRegistration'),
    data: ref('Webhook'),
  },
  { method: 'GET', path: '/webhooks/{webhookId}', purpose: 'one webhook receiver', auth: true, data: ref('Webhook') },
  { method: 'DELETE', path: '/webhooks/{webhookId}', purpose: 'remove a webhook receiver', auth: true, key: true },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}/delivery-attempts',
    purpose: 'delivery log of a webhook receiver',
    auth: true,
  },
  {
    method: 'POST',
    path: '/webhooks/{webhookId}/delivery-attempts/{deliveryId}/retry',
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: true,
  },
  {
    method: 'GET',
    path: '/audit-log',
    purpose: 'audit log with hash-chain proof',
    auth: true,
    query: ['limit', 'offset', 'page'],
  },
];
