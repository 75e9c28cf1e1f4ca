// The operation table of hawthorn's OpenAPI document and self-description (what smallrye-openapi would
// read from the resource annotations): path, operationId, parameters, body and the data of the answer.
import { dt, int, obj, ref, str } from './openapi-schemas.ts';

const P = '/api/public/v1';

export interface Op {
  method: string;
  path: string;
  id: string;
  summary: string;
  auth: boolean;
  key?: boolean;
  query?: Record<string, unknown>;
  pathParams?: string[];
  headers?: Record<string, unknown>;
  body?: string;
  data?: unknown;
  sse?: boolean;
  since?: string;
}

const list = (name: string, item: string) => obj({ count: int, [name]: { type: 'array', items: ref(item) } });

export const OPERATIONS: Op[] = [
  {
    method: 'get',
    path: P,
    id: 'getServiceDescription',
    summary: 'self-description',
    auth: false,
    data: obj({
      service: str,
      surface: str,
      version: str,
      authentication: { type: 'object' },
      idempotency: { type: 'object' },
      routes: { type: 'array', items: ref('RouteInfo') },
    }),
  },
  { method: 'get', path: `${P}/openapi.json`, id: 'getOpenApiDocument', summary: 'OpenAPI 3.1 document', auth: false },
  {
    method: 'get',
    path: `${P}/info`,
    id: 'getAccessInfo',
    summary: 'the calling access: tenant, client, environment, token expiry',
    auth: true,
    data: { type: 'object' },
  },
  {
    method: 'get',
    path: `${P}/providers`,
    id: 'listProviders',
    summary: 'list providers',
    auth: true,
    query: { category: str },
    data: list('providers', 'Provider'),
  },
  {
    method: 'get',
    path: `${P}/connectors`,
    id: 'listConnectors',
    summary: 'list connectors',
    auth: true,
    query: { capability: str, providerId: str, category: str },
    data: list('connectors', 'Connector'),
  },
  {
    method: 'get',
    path: `${P}/capabilities`,
    id: 'listCapabilities',
    summary: 'capability catalog',
    auth: true,
    data: list('capabilities', 'Capability'),
  },
  {
    method: 'post',
    path: `${P}/capabilities`,
    id: 'checkCapability',
    summary: 'check a capability of a connector',
    auth: true,
    body: 'CapabilityCheck',
    data: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  },
  {
    method: 'get',
    path: `${P}/connections`,
    id: 'listConnections',
    summary: 'connections of the tenant',
    auth: true,
    data: obj({ tenant: str, count: int, connections: { type: 'array', items: ref('Connection') } }),
  },
  {
    method: 'post',
    path: `${P}/connections`,
    id: 'createConnection',
    summary: 'create a connection',
    auth: true,
    key: true,
    body: 'ConnectionCreate',
    data: ref('Connection'),
  },
  {
    method: 'post',
    path: `${P}/idempotency-keys`,
    id: 'issueIdempotencyKey',
    summary: 'generate an idempotency key',
    auth: true,
    body: 'KeyRequest',
    data: ref('IdempotencyKeyResult'),
  },
  {
    method: 'get',
    path: `${P}/stream`,
    id: 'streamStatus',
    summary: 'status stream (Server-Sent Events)',
    auth: false,
    sse: true,
    query: { cursor: { type: 'integer', minimum: 0 } },
    headers: { 'Last-Event-ID': { type: 'string', pattern: '^[0-9]+$' } },
  },
  {
    method: 'get',
    path: `${P}/webhooks`,
    id: 'listWebhooks',
    summary: 'webhook receivers of the tenant',
    auth: true,
    data: obj({ count: int, webhooks: { type: 'array', items: ref('Webhook') } }),
  },
  {
    method: 'post',
    path: `${P}/webhooks`,
    id: 'registerWebhook',
    summary: 'create a webhook receiver (signing key issued once)',
    auth: true,
    key: true,
    body: 'WebhookCreate',
    data: ref('Webhook'),
  },
  {
    method: 'delete',
    path: `${P}/webhooks/{webhookId}`,
    id: 'deleteWebhook',
    summary: 'remove a webhook receiver',
    auth: true,
    key: true,
    pathParams: ['webhookId'],
    data: obj({ id: str, status: str, deletedAt: dt }),
  },
  {
    method: 'get',
    path: `${P}/webhooks/{webhookId}/delivery-attempts`,
    id: 'listDeliveryAttempts',
    summary: 'delivery log of a webhook receiver (newest first)',
    auth: true,
    pathParams: ['webhookId'],
    query: { page: { type: 'integer', minimum: 0 }, size: { type: 'integer', minimum: 1, maximum: 100 } },
    since: '2026-07-01',
    data: obj({
      webhookId: str,
      page: int,
      size: int,
      totalCount: int,
      pageCount: int,
      deliveries: { type: 'array', items: ref('Delivery') },
    }),
  },
  {
    method: 'post',
    path: `${P}/webhooks/{webhookId}/delivery-attempts/{deliveryId}/resend`,
    id: 'resendDelivery',
    summary: 'trigger a logged delivery again',
    auth: true,
    key: true,
    pathParams: ['webhookId', 'deliveryId'],
    since: '2026-07-01',
    data: obj({ delivery: ref('Delivery'), resendOf: int }),
  },
  {
    method: 'get',
    path: `${P}/audit-log`,
    id: 'getAuditLog',
    summary: 'audit log with proof of integrity (newest first)',
    auth: true,
    query: { limit: { type: 'integer', minimum: 1, maximum: 500 }, beforeSeq: { type: 'integer', minimum: 0 } },
    data: obj({
      tenant: str,
      order: str,
      count: int,
      total: int,
      entries: { type: 'array', items: ref('AuditEntry') },
      next: { type: ['string', 'null'] },
      proof: { type: 'object' },
    }),
  },
];
