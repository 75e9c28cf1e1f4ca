// Component schemas of the OpenAPI document: what juniper really answers, field for field (rswag style:
// hand-written schemas kept next to the code that serves them).

import { ENVIRONMENTS, VERSIONS } from './types.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

type Schema = Record<string, unknown>;
const str: Schema = { type: 'string' };
const time: Schema = { type: 'string', format: 'date-time' };
const bool: Schema = { type: 'boolean' };
const int: Schema = { type: 'integer', minimum: 0 };
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, Schema>, required: string[] = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required,
});
const list = (name: string, item: Schema): Schema => obj({ count: int, [name]: { type: 'array', items: item } });
const orNull = (type: string, extra: Schema = {}): Schema => ({ type: [type, 'null'], ...extra });

const capabilityEntry = obj({ capability: str, critical: bool, idempotencyRequired: bool });

export const schemas: Record<string, Schema> = {
  Meta: obj(
    {
      requestId: { type: 'string', format: 'uuid' },
      version: { type: 'string', enum: VERSIONS },
      at: time,
      idempotencyKey: str,
      replayed: bool,
    },
    ['requestId', 'version', 'at'],
  ),
  Error: obj(
    {
      ok: { type: 'boolean', const: false },
      error: obj({ code: str, message: str, detail: str, hint: str }, ['code', 'message']),
      meta: ref('Meta'),
    },
    ['ok', 'error', 'meta'],
  ),
  Environment: { type: 'string', enum: ENVIRONMENTS },
  Provider: obj({ id: str, name: str, category: str, summary: str, country: str }, [
    'id',
    'name',
    'category',
    'summary',
  ]),
  Connector: obj(
    { id: str, providerId: str, name: str, category: str, capabilities: { type: 'array', items: str }, status: str },
    ['id', 'providerId', 'name', 'category', 'capabilities'],
  ),
  Capability: obj({ id: str, label: str, critical: bool, idempotencyRequired: bool, description: str }, [
    'id',
    'label',
    'critical',
    'idempotencyRequired',
  ]),
  CapabilityDecision: obj({
    connectorId: str,
    capability: str,
    allowed: bool,
    critical: bool,
    idempotencyRequired: bool,
    reason: str,
  }),
  Connection: obj({
    id: { type: 'string', pattern: '^con_[0-9a-f]{24}$' },
    connectorId: str,
    environment: ref('Environment'),
    scopeLabel: str,
    state: { type: 'string', enum: ['pending_review', 'active', 'paused'] },
    capabilities: { type: 'array', items: capabilityEntry },
    nextStep: { type: 'string', enum: ['await_review', 'start_using', 'contact_support'] },
    createdAt: time,
  }),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  ServiceDescription: obj(
    {
      service: str,
      surface: str,
      version: str,
      authentication: { type: 'object' },
      idempotency: { type: 'object' },
      routes: { type: 'array', items: ref('RouteInfo') },
      openapi: { type: 'object' },
      versions: { type: 'object' },
    },
    ['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'],
  ),
  Info: obj({
    tenant: str,
    clientId: str,
    environment: ref('Environment'),
    tokenExpiresAt: orNull('string', { format: 'date-time' }),
  }),
  ProviderList: list('providers', ref('Provider')),
  ConnectorList: list('connectors', ref('Connector')),
  CapabilityList: list('capabilities', ref('Capability')),
  CapabilityCheckResult: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  ConnectionList: obj({ tenant: str, count: int, connections: { type: 'array', items: ref('Connection') } }),
  IdempotencyKeyResult: obj({
    idempotencyKey: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    operation: str,
    expiresAt: time,
  }),
  Webhook: obj({
    id: { type: 'string', pattern: '^whk_[0-9a-f]{24}$' },
    url: { type: 'string', format: 'uri' },
    events: { type: 'array', items: { type: 'string', enum: WEBHOOK_EVENTS } },
    active: bool,
    createdAt: time,
  }),
  WebhookCreated: {
    allOf: [ref('Webhook')],
    type: 'object',
    properties: { signingKey: { type: 'string', description: 'shown once, in this answer only' } },
  },
  WebhookList: list('webhooks', ref('Webhook')),
  WebhookDeleted: obj({ id: str, deleted: bool }),
  Delivery: obj({
    id: { type: 'string', pattern: '^dlv_[0-9a-f]{24}$' },
    webhookId: str,
    eventId: { type: 'string', format: 'uuid' },
    event: str,
    status: { type: 'string', enum: ['pending', 'retrying', 'succeeded', 'failed'] },
    attempts: int,
    responseStatus: orNull('integer'),
    error: orNull('string'),
    retryOf: orNull('string'),
    createdAt: time,
    deliveredAt: orNull('string', { format: 'date-time' }),
    payload: { type: 'object' },
  }),
  DeliveryLog: obj({ webhookId: str, count: int, deliveries: { type: 'array', items: ref('Delivery') } }),
  AuditEntry: obj({
    seq: { type: 'integer', minimum: 1 },
    id: { type: 'string', format: 'uuid' },
    at: time,
    actor: str,
    action: str,
    resourceType: str,
    resourceId: str,
    requestId: str,
    changes: { type: 'object' },
    hash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    inclusionProof: obj({
      leafIndex: int,
      treeSize: int,
      path: { type: 'array', items: obj({ side: { type: 'string', enum: ['left', 'right'] }, hash: str }) },
    }),
  }),
  AuditLog: obj({
    tenant: str,
    page: { type: 'integer', minimum: 1 },
    perPage: { type: 'integer', minimum: 1, maximum: 100 },
    total: int,
    totalPages: { type: 'integer', minimum: 1 },
    order: { type: 'string', enum: ['newest_first', 'oldest_first'] },
    entries: { type: 'array', items: ref('AuditEntry') },
    integrity: obj({ algorithm: str, entryHash: str, leafHash: str, nodeHash: str, treeSize: int, rootHash: str }),
  }),
};
